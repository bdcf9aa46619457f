"""lineinfile on a test host: replace by regexp, insert after a pattern, backrefs, absent, create, backup,
validate, attributes, check mode that predicts a created file, and the same as deploy through sudo."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost, converge, infra_for


def test_replace_a_line_found_by_regexp(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/sshd_config"
    host.shell(f"printf 'Port 22\\nPermitRootLogin yes\\nUsePAM yes\\n' > {path}")
    result = converge(host, "lineinfile", {"path": path, "regexp": "^PermitRootLogin", "line": "PermitRootLogin no"},
                      state=lambda: infra.file(path).content_string)
    assert result["msg"] == "line replaced"
    assert infra.file(path).content_string == "Port 22\nPermitRootLogin no\nUsePAM yes\n"
    assert "PermitRootLogin yes" in result["diff"]["before"] and "PermitRootLogin no" in result["diff"]["after"]


def test_insert_after_a_pattern_and_at_the_beginning(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/app.ini"
    host.shell(f"printf '[main]\\nname = app\\n[extra]\\n' > {path}")
    converge(host, "lineinfile", {"path": path, "insertafter": r"^\[main\]", "line": "debug = false"},
             state=lambda: infra.file(path).content_string)
    converge(host, "lineinfile", {"path": path, "insertbefore": "BOF", "line": "# managed"},
             state=lambda: infra.file(path).content_string)
    assert infra.file(path).content_string == "# managed\n[main]\ndebug = false\nname = app\n[extra]\n"


def test_backrefs_keep_the_rest_of_the_line(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/listen.conf"
    host.shell(f"printf 'listen 0.0.0.0:80 default\\n' > {path}")
    args = {"path": path, "regexp": r"^(listen\s+)\S+(:\d+.*)$", "line": rf"\g<1>{host.address}\2", "backrefs": True}
    converge(host, "lineinfile", args, state=lambda: infra.file(path).content_string)
    assert infra.file(path).content_string == f"listen {host.address}:80 default\n"
    unmatched = host.run("lineinfile", {**args, "regexp": "^nothing(.*)$"})
    assert unmatched["changed"] is False and infra.file(path).content_string == f"listen {host.address}:80 default\n"


def test_absent_removes_every_matching_line(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/hosts"
    host.shell(f"printf '127.0.0.1 localhost\\n10.0.0.1 old\\n10.0.0.2 old\\n' > {path}")
    result = converge(host, "lineinfile", {"path": path, "regexp": " old$", "state": "absent"},
                      state=lambda: infra.file(path).content_string)
    assert result["msg"] == "2 line(s) removed" and result["found"] == 2
    assert infra.file(path).content_string == "127.0.0.1 localhost\n"


def test_create_with_mode_and_backup(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/new/dir/settings"
    result = converge(host, "lineinfile", {"path": path, "line": "a=1", "create": True, "mode": "0640"},
                      state=lambda: infra.file(path).exists)
    assert result["msg"] == "line added and ownership, perms or SE linux context changed"
    assert infra.file(path).content_string == "a=1\n" and infra.file(path).mode == 0o640
    backed_up = host.run("lineinfile", {"path": path, "line": "b=2", "backup": True})
    assert backed_up["changed"] is True and backed_up["backup"]
    assert infra.file(backed_up["backup"]).content_string == "a=1\n"
    missing = host.run("lineinfile", {"path": f"{scratch}/absent", "line": "x"})
    assert missing["failed"] and missing["msg"] == f"Destination {scratch}/absent does not exist !"


def test_check_mode_predicts_a_new_file_for_later_tasks(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/later"
    predicted = host.run("lineinfile", {"path": path, "line": "x=1", "create": True}, check=True, diff=True)
    assert predicted["changed"] is True and predicted["diff"]["after"] == "x=1\n"
    assert not infra.file(path).exists
    second = host.run("lineinfile", {"path": path, "line": "y=2"}, check=True)
    assert second["changed"] is True and not second.get("failed")
    looked = host.run("stat", {"path": path}, check=True)
    assert looked["stat"]["exists"] is True and looked["stat"]["isreg"] is True


def test_validate_keeps_the_file_when_the_check_fails(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/checked"
    host.shell(f"printf 'ok\\n' > {path}")
    refused = host.run("lineinfile", {"path": path, "line": "bad", "validate": "/bin/sh -c '! grep -q bad %s'"})
    assert refused["failed"] and refused["msg"].startswith("failed to validate")
    assert infra.file(path).content_string == "ok\n"
    assert host.run("lineinfile", {"path": path, "line": "x", "validate": "true"})["msg"] == (
        "validate must contain %s: true")


def test_as_deploy_with_sudo(host_as_deploy: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/root-owned"
    converge(host_as_deploy, "lineinfile", {"path": path, "line": "via sudo", "create": True, "owner": "deploy"},
             state=lambda: infra.file(path).exists)
    assert infra.file(path).user == "deploy" and infra.file(path).content_string == "via sudo\n"


def test_a_rewritten_file_keeps_its_acl(host: RemoteHost, scratch: str) -> None:
    """The new content replaces the file by a rename, so the file's extended attributes (its ACL) are copied onto
    the new one first, as Ansible's atomic_move does."""
    path = f"{scratch}/acl.txt"
    host.shell(f"printf 'a\\n' > {path} && chmod 0644 {path} && setfacl -m nobody:rwx {path}")
    result = host.run("lineinfile", {"path": path, "line": "b"})
    assert result["changed"] is True
    acl = host.shell(f"getfacl -cp {path}").splitlines()
    assert "user:nobody:rwx" in acl and "user::rw-" in acl
    assert host.shell(f"cat {path}") == "a\nb\n"
