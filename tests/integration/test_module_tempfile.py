"""tempfile on a test host: a file and a directory with prefix and suffix, a new one on every run, check mode
that creates nothing but lets later tasks see the path, and a missing parent."""

from __future__ import annotations

import os

from tests.support.remote_harness import RemoteHost, infra_for


def test_file_and_directory(host: RemoteHost, scratch: str, testenv) -> None:
    infra = infra_for(testenv)
    made = host.run("tempfile", {"path": scratch, "prefix": "build.", "suffix": ".log"})
    assert made["changed"] is True and made["state"] == "file" and made["mode"] == "0600"
    name = os.path.basename(made["path"])
    assert os.path.dirname(made["path"]) == scratch and name.startswith("build.") and name.endswith(".log")
    assert infra.file(made["path"]).is_file
    directory = host.run("tempfile", {"path": scratch, "state": "directory"})
    assert infra.file(directory["path"]).is_directory and directory["mode"] == "0700"
    assert os.path.basename(directory["path"]).startswith("ansible.")
    again = host.run("tempfile", {"path": scratch, "state": "directory"})
    assert again["changed"] is True and again["path"] != directory["path"]


def test_check_mode_names_a_path_later_tasks_see(host: RemoteHost, scratch: str, testenv) -> None:
    predicted = host.run("tempfile", {"path": scratch, "state": "directory"}, check=True)
    assert predicted["changed"] is True and predicted["path"].startswith(scratch + "/ansible.")
    assert not infra_for(testenv).file(predicted["path"]).exists
    inside = host.run("copy", {"content": "x", "dest": predicted["path"] + "/x"}, check=True)
    assert not inside.get("failed"), inside
    assert host.run("stat", {"path": predicted["path"]}, check=True)["stat"]["isdir"] is True


def test_missing_directory_fails(host: RemoteHost, scratch: str) -> None:
    result = host.run("tempfile", {"path": f"{scratch}/none"})
    assert result["failed"] and result["msg"] == f"Directory {scratch}/none does not exist or is not a directory"


def test_as_deploy_with_sudo(host_as_deploy: RemoteHost, scratch: str, testenv) -> None:
    made = host_as_deploy.run("tempfile", {"path": scratch})
    assert infra_for(testenv).file(made["path"]).user == "root"
