"""Check mode on fresh hosts (check_mode.yml): --check changes nothing, keeps registered command results usable,
and predicts exactly the changes the real run then makes (the two JSON reports are compared)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import HOSTS, fresh_dir, host_file
from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def base() -> str:
    return fresh_dir("check-mode")


@pytest.fixture(scope="module")
def check_run(inventory_path: Path, base: str, testenv: TestEnv) -> PlaybookRun:
    for host in HOSTS:
        assert not host_file(testenv, host, base).exists()
    return run_playbook(inventory_path, "check_mode.yml", "-e", f"base={base}", "--check")


@pytest.fixture(scope="module")
def real_run(check_run: PlaybookRun, inventory_path: Path, base: str) -> PlaybookRun:
    return run_playbook(inventory_path, "check_mode.yml", "-e", f"base={base}")


def changes(run: PlaybookRun) -> dict[tuple[str, str], bool]:
    assert run.report is not None
    return {(task["task"]["name"], host): bool(result.get("changed"))
            for play in run.report["plays"] for task in play["tasks"]
            for host, result in task["hosts"].items() if not result.get("skipped")}


def test_check_mode_changes_nothing_on_the_hosts(check_run: PlaybookRun, testenv: TestEnv, base: str) -> None:
    assert check_run.exit_code == 0, check_run.output
    for host in HOSTS:
        assert not host_file(testenv, host, base).exists()


def test_a_skipped_command_still_registers_typed_keys(check_run: PlaybookRun) -> None:
    for result in check_run.task("list the directory").values():
        assert result["skipped"] is True
        assert (result["rc"], result["stdout"], result["stdout_lines"]) == (0, "", [])
    assert set(check_run.msg("read the listing").values()) == {"rc=0 stdout= lines=0"}


def test_check_mode_false_runs_for_real_in_check_mode(check_run: PlaybookRun) -> None:
    assert check_run.msg("say the probe") == {host: host for host in HOSTS}


def test_the_real_run_makes_exactly_the_predicted_changes(check_run: PlaybookRun, real_run: PlaybookRun,
                                                          testenv: TestEnv, base: str) -> None:
    assert real_run.exit_code == 0, real_run.output
    predicted, made = changes(check_run), changes(real_run)
    # Only the skipped command has no prediction; everything check mode reported, the real run did.
    assert set(made) - set(predicted) == {("list the directory", host) for host in HOSTS}
    assert {key: made[key] for key in predicted} == predicted
    assert predicted[("make the directory", "host1")] and predicted[("copy a file into it", "host1")]
    for host in HOSTS:
        assert host_file(testenv, host, f"{base}/app.conf").read_text() == "listen 8080\n"
        assert not host_file(testenv, host, f"{base}/never").exists()
    assert set(real_run.msg("read the listing").values()) == {"rc=0 stdout=app.conf lines=1"}
