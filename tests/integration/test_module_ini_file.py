"""ini_file on a test host: options set, changed and removed, several values, sections added and removed, a
commented-out option taken over, a file created with attributes, and as deploy through sudo."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost, converge, infra_for


def test_option_set_changed_and_removed(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/app.ini"
    host.shell(f"printf '[main]\\n; workers = 2\\nname = app\\n\\n[log]\\nlevel = info\\n' > {path}")
    added = converge(host, "ini_file", {"path": path, "section": "main", "option": "workers", "value": "4"},
                     state=lambda: infra.file(path).content_string)
    assert added["msg"] == "option changed"
    assert infra.file(path).content_string == "[main]\nworkers = 4\nname = app\n\n[log]\nlevel = info\n"
    converge(host, "ini_file", {"path": path, "section": "log", "option": "level", "value": "debug",
                                "no_extra_spaces": True}, state=lambda: infra.file(path).content_string)
    converge(host, "ini_file", {"path": path, "section": "main", "option": "name", "state": "absent"},
             state=lambda: infra.file(path).content_string)
    assert infra.file(path).content_string == "[main]\nworkers = 4\n\n[log]\nlevel=debug\n"


def test_several_values_and_sections(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/drinks.ini"
    created = converge(host, "ini_file", {"path": path, "section": "drinks", "option": "beverage",
                                          "values": ["coke", "pepsi"], "mode": "0600"},
                       state=lambda: infra.file(path).exists)
    assert created["msg"].startswith("section and option added")
    assert infra.file(path).content_string == "\n[drinks]\nbeverage = coke\nbeverage = pepsi\n"
    assert infra.file(path).mode == 0o600
    converge(host, "ini_file", {"path": path, "section": "drinks", "option": "beverage", "value": "tea",
                                "exclusive": False}, state=lambda: infra.file(path).content_string)
    assert infra.file(path).content_string == "\n[drinks]\nbeverage = coke\nbeverage = pepsi\nbeverage = tea\n"
    removed = converge(host, "ini_file", {"path": path, "section": "drinks", "state": "absent"},
                       state=lambda: infra.file(path).content_string)
    assert removed["msg"] == "section removed" and infra.file(path).content_string == "\n"


def test_create_false_and_missing_value(host: RemoteHost, scratch: str) -> None:
    missing = host.run("ini_file", {"path": f"{scratch}/none.ini", "section": "a", "option": "b", "value": "c",
                                    "create": False})
    assert missing["failed"] and missing["msg"] == f"Destination {scratch}/none.ini does not exist!"
    no_value = host.run("ini_file", {"path": f"{scratch}/x.ini", "section": "a", "option": "b"})
    assert no_value["failed"] and "value(s)" in no_value["msg"]


def test_as_deploy_with_sudo_and_backup(host_as_deploy: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    path = f"{scratch}/root.ini"
    host_as_deploy.shell(f"printf '[s]\\nk = 1\\n' > {path}")
    host_as_deploy.shell(f"chmod 0600 {path}")
    result = converge(host_as_deploy, "ini_file", {"path": path, "section": "s", "option": "k", "value": "2",
                                                   "backup": True}, state=lambda: infra.file(path).content_string)
    assert infra.file(result["backup_file"]).content_string == "[s]\nk = 1\n"
    assert infra.file(path).content_string == "[s]\nk = 2\n" and infra.file(path).mode == 0o600
