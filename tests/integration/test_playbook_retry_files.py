"""Retry files on real runs (reports.yml: host3 fails; 'ghost' has no sshd): written when enabled, beside the
playbook or in retry_files_save_path, announced before the recap, and read back by --limit @FILE."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.integration.playbook_run import inventory_with_unreachable_host
from tests.support.playbook_run import PLAYBOOKS, PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def inventory(inventory_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return inventory_with_unreachable_host(inventory_path, tmp_path_factory.mktemp("retry-inventory"))


@pytest.fixture(scope="module")
def saved(inventory: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[PlaybookRun, Path]:
    """A run with retry files on, saved in a directory of their own that does not exist yet."""
    save_path = tmp_path_factory.mktemp("retry") / "saved"
    run = run_playbook(inventory, "reports.yml", env={"PROVISIONING_RETRY_FILES": "true",
                                                      "PROVISIONING_RETRY_FILES_SAVE_PATH": str(save_path)})
    return run, save_path / "reports.retry"


def test_the_failed_and_unreachable_hosts_are_written_one_a_line(saved: tuple[PlaybookRun, Path]) -> None:
    run, retry_file = saved
    assert run.exit_code == 4, run.output
    assert retry_file.read_text() == "ghost\nhost3\n"


def test_the_message_comes_before_the_recap(saved: tuple[PlaybookRun, Path]) -> None:
    run, retry_file = saved
    message = f"\n\tto retry, use: --limit @{retry_file}\n"
    assert message in run.output
    assert run.output.index(message) < run.output.index("PLAY RECAP")


def test_limit_at_the_retry_file_runs_only_those_hosts(inventory: Path, saved: tuple[PlaybookRun, Path]) -> None:
    _, retry_file = saved
    again = run_playbook(inventory, "reports.yml", "--limit", f"@{retry_file}")
    assert sorted(again.stats) == ["ghost", "host3"]
    assert again.ran("changed everywhere") == ["host3"]


def test_with_ansibles_variable_the_file_goes_beside_the_playbook(inventory: Path, tmp_path: Path) -> None:
    playbook = tmp_path / "reports.yml"
    shutil.copy(PLAYBOOKS / "reports.yml", playbook)
    run = run_playbook(inventory, playbook, "--limit", "host2:host3", env={"ANSIBLE_RETRY_FILES_ENABLED": "yes"})
    assert run.exit_code == 2, run.output
    assert (tmp_path / "reports.retry").read_text() == "host3\n"


def test_retry_files_are_off_by_default(inventory: Path, tmp_path: Path) -> None:
    run = run_playbook(inventory, "reports.yml", "--limit", "host3",
                       env={"PROVISIONING_RETRY_FILES_SAVE_PATH": str(tmp_path)})
    assert run.exit_code == 2, run.output
    assert "to retry" not in run.output
    assert list(tmp_path.iterdir()) == []
