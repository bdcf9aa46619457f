"""script on a real test host: a local script sent over the agent's channel and run there."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.remote_harness import RemoteHost


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A playbook directory with files/report.sh (prints its name, arguments and directory) and files/fail.sh."""
    files = tmp_path / "files"
    files.mkdir()
    (files / "report.sh").write_text('#!/bin/sh\necho "$(basename "$0") [$*] $(pwd) $(id -un)"\necho err >&2\n')
    (files / "fail.sh").write_text("#!/bin/sh\necho broken\nexit 3\n")
    (tmp_path / "show.py").write_text("import sys\nprint('python', sys.argv[1:])\n")
    return tmp_path


@pytest.fixture
def workdir(host: RemoteHost) -> Iterator[str]:
    path = f"/tmp/script-{uuid.uuid4().hex[:8]}"
    host.shell(f"mkdir -p {path}")
    yield path
    host.shell(f"rm -rf {path}")


def _run(target: RemoteHost, project: Path, args: dict, **options) -> dict:
    return target.run("script", args, search_paths=[project], **options)


def test_runs_with_arguments_as_written(host: RemoteHost, project: Path) -> None:
    result = _run(host, project, {"_raw_params": 'report.sh one "two words" $HOME'})
    assert result["changed"] is True and result["rc"] == 0, result
    assert result["stdout"] == "report.sh [one two words /root] /root root"  # run from the user's home
    assert result["stderr"] == "err" and result["stdout_lines"] == [result["stdout"]]
    sent = result["cmd"].split()[0]
    assert host.shell(f"test -e {sent} && echo kept || echo removed") == "removed\n"


def test_chdir_and_executable(host: RemoteHost, project: Path, workdir: str) -> None:
    result = _run(host, project, {"cmd": "report.sh x", "chdir": workdir})
    assert result["stdout"].endswith(f"[x] {workdir} root")
    python = _run(host, project, {"_raw_params": "show.py a b", "executable": "python3"})
    assert python["stdout"] == "python ['a', 'b']"


def test_creates_and_removes_decide_and_check_mode_skips(host: RemoteHost, project: Path, workdir: str) -> None:
    marker = f"{workdir}/done"
    args = {"_raw_params": f"report.sh && touch {marker}", "creates": marker}
    predicted = _run(host, project, args, check=True)
    assert predicted["changed"] is True and host.shell(f"ls {workdir}") == ""
    assert _run(host, project, args)["changed"] is True
    second = _run(host, project, args)
    assert second == {"changed": False, "skipped": True, "msg": f"{marker} exists, matching creates option"}
    removes = _run(host, project, {"_raw_params": "report.sh", "removes": f"{workdir}/nothing"})
    assert removes["skipped"] is True and removes["changed"] is False
    assert removes["msg"] == f"{workdir}/nothing does not exist, matching removes option"
    skipped = _run(host, project, {"_raw_params": "report.sh"}, check=True)
    assert skipped["skipped"] is True and skipped["changed"] is False


def test_failures_are_clear(host: RemoteHost, project: Path) -> None:
    failed = _run(host, project, {"_raw_params": "fail.sh"})
    assert failed["failed"] is True and failed["rc"] == 3 and failed["stdout"] == "broken"
    assert failed["msg"] == "non-zero return code"
    missing = _run(host, project, {"_raw_params": "nope.sh"})
    assert missing["failed"] is True and "Could not find or access 'nope.sh'" in missing["msg"]
    empty = _run(host, project, {})
    assert empty["failed"] is True and empty["msg"] == "one of the following is required: _raw_params, cmd"  # Ansible's
    bad_dir = _run(host, project, {"_raw_params": "report.sh", "chdir": "/does/not/exist"})
    assert bad_dir["failed"] is True and "Unable to change directory" in bad_dir["msg"]


def test_runs_as_the_become_user(host_as_deploy: RemoteHost, project: Path) -> None:
    result = _run(host_as_deploy, project, {"_raw_params": "report.sh"})
    assert result["changed"] is True and result["stdout"].endswith(" root"), result
