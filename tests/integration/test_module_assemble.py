"""assemble on a test host: fragments on the host (the default) or on the controller, in name order, with a
delimiter and a regexp, newlines between fragments, backup and validate, and as deploy through sudo."""

from __future__ import annotations

from pathlib import Path

from tests.support.remote_harness import RemoteHost, converge, infra_for


def make_fragments(host: RemoteHost, directory: str) -> None:
    host.shell(f"mkdir -p {directory} && cd {directory} && printf 'b\\n' > 20-b && printf 'a' > 10-a"
               f" && printf 'c\\n' > 30-c.disabled && printf 'h\\n' > .hidden")


def test_fragments_on_the_host(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    make_fragments(host, f"{scratch}/conf.d")
    dest = f"{scratch}/app.conf"
    args = {"src": f"{scratch}/conf.d", "dest": dest, "regexp": r"^\d+-\w$", "mode": "0640"}
    result = converge(host, "assemble", args, state=lambda: infra.file(dest).exists)
    assert infra.file(dest).content_string == "a\nb\n" and infra.file(dest).mode == 0o640
    assert result["checksum"] and result["msg"].startswith("OK")
    delimited = host.run("assemble", {"src": f"{scratch}/conf.d", "dest": dest, "delimiter": "### next",
                                      "ignore_hidden": True})
    assert delimited["changed"] is True
    assert infra.file(dest).content_string == "a\n### next\nb\n### next\nc\n"


def test_fragments_on_the_controller(host: RemoteHost, scratch: str, tmp_path: Path, testenv) -> None:
    infra = infra_for(testenv)
    keys = tmp_path / "files" / "keys"
    keys.mkdir(parents=True)
    (keys / "alice.pub").write_text("ssh-ed25519 AAAA alice\n")
    (keys / "bob.pub").write_text("ssh-ed25519 BBBB bob\n")
    dest = f"{scratch}/authorized_keys"
    args = {"src": "keys", "dest": dest, "remote_src": False, "mode": "0600"}
    result = converge(host, "assemble", args, state=lambda: infra.file(dest).exists, search_paths=[tmp_path])
    assert infra.file(dest).content_string == "ssh-ed25519 AAAA alice\nssh-ed25519 BBBB bob\n"
    assert result["src"] == str(keys)
    missing = host.run("assemble", {**args, "src": "none"}, search_paths=[tmp_path])
    assert missing["failed"] and "Could not find or access 'none'" in missing["msg"]


def test_backup_validate_and_missing_source(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    make_fragments(host, f"{scratch}/conf.d")
    dest = f"{scratch}/app.conf"
    host.shell(f"echo old > {dest}")
    refused = host.run("assemble", {"src": f"{scratch}/conf.d", "dest": dest, "validate": "false %s"})
    assert refused["failed"] and infra.file(dest).content_string == "old\n"
    written = host.run("assemble", {"src": f"{scratch}/conf.d", "dest": dest, "backup": True})
    assert infra.file(written["backup_file"]).content_string == "old\n"
    assert host.run("assemble", {"src": f"{scratch}/none", "dest": dest})["msg"] == (
        f"Source ({scratch}/none) does not exist")


def test_as_deploy_with_sudo(host: RemoteHost, host_as_deploy: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    make_fragments(host, f"{scratch}/conf.d")
    host.shell(f"chmod 0700 {scratch}/conf.d")
    dest = f"{scratch}/root.conf"
    converge(host_as_deploy, "assemble", {"src": f"{scratch}/conf.d", "dest": dest, "regexp": "^[0-9]+-[a-z]$"},
             state=lambda: infra.file(dest).exists)
    assert infra.file(dest).user == "root" and infra.file(dest).content_string == "a\nb\n"
