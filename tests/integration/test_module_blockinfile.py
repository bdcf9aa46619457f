"""blockinfile on a test host: a block inserted, updated and removed between markers, insert positions, blank
lines around it, create with attributes, and as deploy through sudo."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost, converge, infra_for


def test_block_inserted_updated_and_removed(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/hosts"
    host.shell(f"printf '127.0.0.1 localhost\\n' > {path}")
    args = {"path": path, "marker": "# {mark} lab", "block": "10.0.0.10 db1\n10.0.0.11 db2\n"}
    inserted = converge(host, "blockinfile", args, state=lambda: infra.file(path).content_string)
    assert inserted["msg"] == "Block inserted"
    assert infra.file(path).content_string == (
        "127.0.0.1 localhost\n# BEGIN lab\n10.0.0.10 db1\n10.0.0.11 db2\n# END lab\n")
    converge(host, "blockinfile", {**args, "block": "10.0.0.12 db3"}, state=lambda: infra.file(path).content_string)
    assert infra.file(path).content_string == "127.0.0.1 localhost\n# BEGIN lab\n10.0.0.12 db3\n# END lab\n"
    removed = converge(host, "blockinfile", {**args, "state": "absent"},
                       state=lambda: infra.file(path).content_string)
    assert removed["msg"] == "Block removed" and infra.file(path).content_string == "127.0.0.1 localhost\n"


def test_insert_before_a_pattern_with_blank_lines_around(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/sshd_config"
    host.shell(f"printf 'Port 22\\nMatch all\\n' > {path}")
    args = {"path": path, "insertbefore": "^Match", "block": "PasswordAuthentication no",
            "prepend_newline": True, "append_newline": True}
    converge(host, "blockinfile", args, state=lambda: infra.file(path).content_string)
    assert infra.file(path).content_string == (
        "Port 22\n\n# BEGIN ANSIBLE MANAGED BLOCK\nPasswordAuthentication no\n# END ANSIBLE MANAGED BLOCK\n\n"
        "Match all\n")


def test_create_a_file_with_a_block(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/motd"
    created = converge(host, "blockinfile", {"path": path, "block": "hello", "create": True, "mode": "0600"},
                       state=lambda: infra.file(path).exists)
    assert created["msg"].startswith("File created")
    assert infra.file(path).mode == 0o600
    missing = host.run("blockinfile", {"path": f"{scratch}/none", "block": "x"})
    assert missing["failed"] and missing["msg"] == f"Path {scratch}/none does not exist !"


def test_as_deploy_with_sudo_and_backup(host_as_deploy: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/profile"
    host_as_deploy.shell(f"printf 'export A=1\\n' > {path}")
    host_as_deploy.shell(f"chmod 0600 {path}")
    result = converge(host_as_deploy, "blockinfile", {"path": path, "block": "export B=2", "backup": True},
                      state=lambda: infra.file(path).content_string)
    assert infra.file(result["backup_file"]).content_string == "export A=1\n"
    assert infra.file(path).mode == 0o600 and infra.file(path).user == "root"
