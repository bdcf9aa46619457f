"""Handlers on real hosts (handlers.yml, handlers_force.yml): each handler and task writes to a log on the host,
so the log's lines are the order things ran in."""

from __future__ import annotations

import re
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


TAGGED_PLAY = """
- hosts: host1,host2
  gather_facts: false
  tags: the_whole_play
  tasks:
    - name: untagged change
      command: "true"
      notify: first
    - name: tagged change
      command: "true"
      notify: second
      tags: task_tag
  handlers:
    - name: first
      debug:
        msg: first_ran
    - name: second
      debug:
        msg: second_ran
"""
DEBUG_LINE = r"^ *\d+ \d+\.\d{5}: "


@pytest.mark.parametrize(("flags", "flushed", "skipped"), [
    (("--tags", "task_tag"), ["host1", "host2"], ["host1", "host2", "host1", "host2"]),
    (("--skip-tags", "the_whole_play"), [], []),
])
def test_the_debug_log_shows_the_implicit_flushes_the_tags_select(inventory_path: Path, tmp_path: Path,
                                                                   flags: tuple[str, ...], flushed: list[str],
                                                                   skipped: list[str]) -> None:
    # ANSIBLE_DEBUG's lines come on the command's stdout from a real run (its workers forked, or the warm
    # controller's child for the run): the implicit flush_handlers after each section runs for a host with a
    # handler notified and is skipped for one without; a play the tags leave out has no flush at all
    playbook = tmp_path / "tagged.yml"
    playbook.write_text(TAGGED_PLAY)
    run = run_playbook(inventory_path, str(playbook), *flags, subprocess_run=True, env={"ANSIBLE_DEBUG": "1"})
    assert run.exit_code == 0, run.output
    assert re.findall(DEBUG_LINE + r"META: triggered running handlers for (\S+)$", run.stdout, re.MULTILINE) \
        == flushed
    assert re.findall(DEBUG_LINE + r"No handler notifications for (\S+), skipping\.$", run.stdout, re.MULTILINE) \
        == skipped
    assert run.stdout.count("second_ran") == len(flushed) and "first_ran" not in run.stdout
