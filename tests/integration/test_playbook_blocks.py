"""Blocks on real hosts: rescue, always, ansible_failed_task/result, inherited keywords (blocks.yml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import fresh_dir, host_file
from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def base() -> str:
    return fresh_dir("blocks")


@pytest.fixture(scope="module")
def run(inventory_path: Path, base: str) -> PlaybookRun:
    return run_playbook(inventory_path, "blocks.yml", "-e", f"base={base}")


def test_a_rescued_failure_is_not_a_failure(run: PlaybookRun) -> None:
    assert run.stats["host2"]["failures"] == 0 and run.stats["host2"]["rescued"] == 1
    assert run.ran("after the blocks") == ["host1", "host2"]


def test_the_failed_task_and_its_result_reach_the_rescue(run: PlaybookRun) -> None:
    assert run.msg("rescue") == {"host2": "fails on host2 rc=1"}


def test_the_block_stops_at_the_failure_and_always_runs(run: PlaybookRun, testenv: TestEnv, base: str) -> None:
    assert run.ran("after the failure") == ["host1", "host3"]
    assert not host_file(testenv, "host2", f"{base}/block-done").exists()
    for host in ("host1", "host2", "host3"):
        assert host_file(testenv, host, f"{base}/always").exists()


def test_block_keywords_reach_every_task_inside(run: PlaybookRun) -> None:
    assert run.ran("inherits become and vars") == ["host1", "host2"]
    assert set(run.msg("inner vars win").values()) == {"nested as deploy"}


def test_a_failing_rescue_fails_the_host_after_always(run: PlaybookRun) -> None:
    assert run.task("rescue fails")["host3"]["failed"] is True
    assert run.msg("always after a failed rescue") == {"host3": "always"}
    assert run.stats["host3"]["failures"] == 1 and run.stats["host3"]["rescued"] == 1
    assert run.exit_code == 2
