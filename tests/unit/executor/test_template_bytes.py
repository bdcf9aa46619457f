"""``template`` writes what it rendered in ``output_encoding``: bytes that a filter kept as lone surrogates
(``b64decode`` of Latin-1 text) go back as those bytes, as Ansible writes them, and text the encoding cannot hold
fails the task with a message, not an internal error."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts

TASKS = """
- hosts: h1
  gather_facts: false
  vars:
    latin1: "Q2Fm6SBF8WU="
  tasks:
    - name: latin-1 bytes
      template: {src: "{{ workdir }}/../latin1.j2", dest: "{{ workdir }}/latin1.txt"}
    - name: not ascii
      template: {src: "{{ workdir }}/../accents.j2", dest: "{{ workdir }}/ascii.txt", output_encoding: ascii}
      ignore_errors: true
"""


def test_bytes_kept_as_surrogates_are_written_back_and_unencodable_text_fails(local_hosts: LocalHosts) -> None:
    (local_hosts.base / "latin1.j2").write_text("{{ latin1 | b64decode }}\n")
    (local_hosts.base / "accents.j2").write_text("Café\n")
    run = local_hosts.play(TASKS)
    assert run.exit_code == 0, run.output
    assert (local_hosts.workdir("h1") / "latin1.txt").read_bytes() == "Café Eñe\n".encode("latin-1")
    failed = run.task("not ascii")["h1"]
    assert failed["failed"] is True
    assert failed["msg"].startswith("the rendered template cannot be written as ascii: ordinal not in range(128)")
