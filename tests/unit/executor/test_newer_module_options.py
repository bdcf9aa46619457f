"""Module options and results ansible-core added in 2.20 and 2.21, so that content written for it runs: lineinfile
and blockinfile in a file of another character encoding (``encoding``: the patterns match the file's text, what is
written is in the file's encoding), slurp's ``armor``, stat's ``get_selinux_context`` and ``disk_usage_bytes``."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_lines_and_blocks_are_edited_in_the_files_own_encoding(local_hosts: LocalHosts) -> None:
    workdir = local_hosts.workdir("h1")
    (workdir / "latin1.conf").write_bytes("nom=Andr\xe9\n".encode("latin-1"))
    (workdir / "utf16.conf").write_bytes("a=1\n".encode("utf-16"))
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - lineinfile:
                path: "{{ workdir }}/latin1.conf"
                regexp: "^nom=André$"
                line: "nom=Zoë"
                encoding: latin-1
            - lineinfile:
                path: "{{ workdir }}/utf16.conf"
                line: "b=2"
                encoding: utf-16
            - name: again
              lineinfile:
                path: "{{ workdir }}/utf16.conf"
                line: "b=2"
                encoding: utf-16
            - blockinfile:
                path: "{{ workdir }}/latin1.conf"
                block: "ville=Besançon"
                encoding: latin-1
        """)
    assert run.exit_code == 0, run.output
    assert (workdir / "latin1.conf").read_bytes().decode("latin-1") == (
        "nom=Zo\xeb\n# BEGIN ANSIBLE MANAGED BLOCK\nville=Besan\xe7on\n# END ANSIBLE MANAGED BLOCK\n")
    assert (workdir / "utf16.conf").read_bytes().decode("utf-16") == "a=1\nb=2\n"
    assert run.task("again")["h1"]["changed"] is False


def test_a_file_its_encoding_cannot_read_fails_the_task(local_hosts: LocalHosts) -> None:
    workdir = local_hosts.workdir("h1")
    (workdir / "bytes.conf").write_bytes(b"\xff\xfe\xfd\n")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - lineinfile:
                path: "{{ workdir }}/bytes.conf"
                line: "x=1"
                encoding: ascii
        """)
    assert run.exit_code == 2, run.output
    assert "as ascii" in run.output and "Unable to read the contents of" in run.output
    assert (workdir / "bytes.conf").read_bytes() == b"\xff\xfe\xfd\n"


def test_slurp_without_armor_and_stat_of_the_selinux_context(local_hosts: LocalHosts) -> None:
    # ansible-core 2.21's slurp armor and stat disk_usage_bytes, 2.20's get_selinux_context (no SELinux here)
    (local_hosts.workdir("h1") / "motd").write_bytes(b"hello\n")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: plain
              slurp: {src: "{{ workdir }}/motd", armor: false}
            - name: armored
              slurp: {src: "{{ workdir }}/motd"}
            - name: context
              stat: {path: "{{ workdir }}/motd", get_selinux_context: true}
        """)
    assert run.exit_code == 0, run.output
    assert (run.task("plain")["h1"]["content"], run.task("plain")["h1"]["encoding"]) == ("hello\n", "utf-8")
    assert (run.task("armored")["h1"]["content"], run.task("armored")["h1"]["encoding"]) == ("aGVsbG8K", "base64")
    stat = run.task("context")["h1"]["stat"]
    assert stat["selinux_context"] == [None, None, None, None]
    assert stat["disk_usage_bytes"] == stat["blocks"] * 512
