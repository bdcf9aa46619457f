"""omit in templated task keywords (omit_keywords.yml): the keyword is not set at the task's level, so the enclosing
block's or play's value applies, as ansible-core runs it; a condition that resolves to omit fails its task with a
message."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def run(inventory_path: Path) -> PlaybookRun:
    return run_playbook(inventory_path, "omit_keywords.yml")


def result(run: PlaybookRun, task: str) -> dict:
    return run.tasks(task)[0]["host1"]


@pytest.mark.parametrize("task", ["timeout", "retries and delay", "async and poll", "environment",
                                  "loop label and pause"])
def test_an_omitted_keyword_runs_the_task_as_without_it(run: PlaybookRun, task: str) -> None:
    outcome = result(run, task)
    assert not outcome.get("failed"), outcome
    assert "__omit_place_holder__" not in run.output


def test_omitted_become_keywords_keep_the_plays(run: PlaybookRun) -> None:
    assert result(run, "become keeps the play's")["stdout"] == "deploy"


def test_omitted_connection_keywords_run_on_the_host_as_configured(run: PlaybookRun) -> None:
    outcome = result(run, "remote_user, connection and delegate_to")
    assert outcome["stdout"] == "root" and "_delegated_to" not in outcome


def test_omitted_check_mode_runs_the_task(run: PlaybookRun) -> None:
    outcome = result(run, "check_mode and diff")
    assert outcome["stdout"] == "ran" and not outcome.get("skipped")


def test_omitted_environment_sets_nothing(run: PlaybookRun) -> None:
    assert result(run, "environment")["stdout"] == "none"


def test_omitted_loop_label_shows_the_item(run: PlaybookRun) -> None:
    assert "(item=one)" in run.output


def test_omitted_ignore_errors_takes_the_blocks_else_does_not_ignore(run: PlaybookRun) -> None:
    assert result(run, "ignore_errors omitted in a block that ignores errors")["failed"] is True
    assert result(run, "ignore_errors omitted does not ignore")["failed"] is True
    # ignored: the block's task and the condition's task (which ignores errors itself)
    assert run.stats["host1"]["ignored"] == 2 and run.stats["host1"]["failures"] == 1
    assert run.exit_code == 2, run.output


def test_a_condition_resolving_to_omit_fails_with_a_message(run: PlaybookRun) -> None:
    outcome = result(run, "omitted condition")
    assert outcome["failed"] is True
    assert outcome["msg"].startswith("conditional '{{ unset | default(omit) }}' resolved to omit"), outcome
    assert "omit_keywords.yml:" in outcome["msg"]
