"""stat in a check run on a test host: a path that an earlier task would create or remove is reported as that
task would leave it, so a chain of check-mode tasks reads right."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost, infra_for


def test_a_directory_an_earlier_task_would_create(host: RemoteHost, scratch: str, testenv) -> None:
    path = f"{scratch}/later/dir"
    assert host.run("file", {"path": path, "state": "directory"}, check=True)["changed"] is True
    predicted = host.run("stat", {"path": path}, check=True)["stat"]
    assert predicted == {"exists": True, "path": path, "predicted": True, "isdir": True, "isreg": False,
                         "islnk": False}
    assert host.run("stat", {"path": f"{scratch}/later"}, check=True)["stat"]["isdir"] is True
    assert not infra_for(testenv).file(path).exists
    assert host.run("stat", {"path": path})["stat"] == {"exists": False}  # a real run reads the disk


def test_a_file_an_earlier_task_would_remove(host: RemoteHost, scratch: str) -> None:
    path = f"{scratch}/doomed"
    host.shell(f"echo x > {path}")
    host.run("file", {"path": path, "state": "absent"}, check=True)
    assert host.run("stat", {"path": path}, check=True)["stat"] == {"exists": False}
    real = host.run("stat", {"path": path}, check=False)["stat"]
    assert real["exists"] is True and real["isreg"] is True and real["size"] == 2
