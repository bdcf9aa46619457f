"""Handlers on real hosts (handlers.yml, handlers_force.yml): each handler and task writes to a log on the host,
so the log's lines are the order things ran in."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import HOSTS, fresh_dir, host_file
from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def base() -> str:
    return fresh_dir("handlers")


@pytest.fixture(scope="module")
def run(inventory_path: Path, base: str) -> PlaybookRun:
    return run_playbook(inventory_path, "handlers.yml", "-e", f"base={base}")


def test_handlers_run_once_in_definition_order_at_flush_and_at_the_end(run: PlaybookRun, testenv: TestEnv,
                                                                       base: str) -> None:
    assert run.exit_code == 0, run.output
    for host in HOSTS:
        log = host_file(testenv, host, f"{base}/log").read_text().split()
        # flush_handlers runs what was notified so far (second handler once, though notified twice; the
        # listener by its topic), in the order handlers are defined; the end of the play runs the rest.
        assert log == ["task1", "task2", "second", "listener", "after-flush", "included", "first"]


def test_the_output_says_running_handler(run: PlaybookRun) -> None:
    assert run.output.count("RUNNING HANDLER [second handler]") == 1
    assert "RUNNING HANDLER [topic listener]" in run.output
    assert "unnotified" not in run.output


@pytest.mark.parametrize(("flags", "handled"), [((), ["host1"]), (("--force-handlers",), ["host1", "host2"])])
def test_a_failed_host_runs_its_handlers_only_when_forced(inventory_path: Path, testenv: TestEnv,
                                                          flags: tuple[str, ...], handled: list[str]) -> None:
    base = fresh_dir("force-handlers")
    run = run_playbook(inventory_path, "handlers_force.yml", "-e", f"base={base}", *flags)
    assert run.exit_code == 2
    assert [h for h in ("host1", "host2") if host_file(testenv, h, f"{base}/handled").exists()] == handled


def test_a_failed_handler_stops_its_host(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "handlers_fail.yml")
    assert run.exit_code == 2
    assert run.msg("later handler") == {"host2": "ran"}
