"""replace on a test host: every match replaced with groups, a section between after and before, a pattern
that matches nothing, validate and backup, and as deploy through sudo."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost, converge, infra_for


def test_every_match_replaced(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/hosts"
    host.shell(f"printf '10.0.0.1 old.example old\\n10.0.0.2 other\\n10.0.0.3 old.example\\n' > {path}")
    result = converge(host, "replace", {"path": path, "regexp": r"\bold\.example\b", "replace": "new.example"},
                      state=lambda: infra.file(path).content_string)
    assert result["msg"] == "2 replacements made"
    assert infra.file(path).content_string == "10.0.0.1 new.example old\n10.0.0.2 other\n10.0.0.3 new.example\n"


def test_only_between_after_and_before(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/site.conf"
    host.shell(f"printf 'a\\n<VirtualHost *>\\nb\\nc\\n</VirtualHost>\\nd\\n' > {path}")
    args = {"path": path, "after": r"<VirtualHost [*]>\n", "before": "</VirtualHost>", "regexp": r"^(\w)$",
            "replace": r"# \1"}
    converge(host, "replace", args, state=lambda: infra.file(path).content_string)
    assert infra.file(path).content_string == "a\n<VirtualHost *>\n# b\n# c\n</VirtualHost>\nd\n"
    nowhere = host.run("replace", {**args, "after": "<Nothing>"})
    assert nowhere["changed"] is False and nowhere["msg"].startswith("Pattern for before/after params did not match")


def test_backup_validate_and_failures(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/app.conf"
    host.shell(f"printf 'level=debug\\n' > {path}")
    refused = host.run("replace", {"path": path, "regexp": "debug", "replace": "bad", "validate": "false %s"})
    assert refused["failed"] and infra.file(path).content_string == "level=debug\n"
    done = host.run("replace", {"path": path, "regexp": "debug", "replace": "info", "backup": True,
                                "validate": "grep -q info %s"})
    assert done["changed"] and infra.file(done["backup_file"]).content_string == "level=debug\n"
    assert host.run("replace", {"path": f"{scratch}/none", "regexp": "x"})["msg"] == (
        f"Path {scratch}/none does not exist !")
    assert host.run("replace", {"path": path, "regexp": "("})["msg"].startswith("Unable to process replace")


def test_as_deploy_with_sudo(host_as_deploy: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/root-only"
    host_as_deploy.shell(f"printf 'port=80\\n' > {path}")
    host_as_deploy.shell(f"chmod 0600 {path}")
    converge(host_as_deploy, "replace", {"path": path, "regexp": "^port=80$", "replace": "port=8080",
                                         "mode": "0640"}, state=lambda: infra.file(path).content_string)
    assert infra.file(path).content_string == "port=8080\n" and infra.file(path).mode == 0o640
