"""Conditionals, registered results and their conditions, and retries (tests/data/playbooks/conditionals.yml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import HOSTS, fresh_dir, host_file
from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def base() -> str:
    return fresh_dir("conditionals")


@pytest.fixture(scope="module")
def run(inventory_path: Path, base: str) -> PlaybookRun:
    return run_playbook(inventory_path, "conditionals.yml", "-e", f"base={base}")


def test_every_host_finishes_and_ignored_errors_are_counted(run: PlaybookRun) -> None:
    assert run.exit_code == 0, run.output
    for host in HOSTS:
        assert run.stats[host]["failures"] == 0
        # two non-boolean conditions, two failed_when, a changed_when in error, until giving up
        assert run.stats[host]["ignored"] == 6


def test_when_selects_hosts(run: PlaybookRun) -> None:
    assert run.ran("only host2") == ["host2"]
    assert run.ran("every condition of a list") == ["host1", "host2"]
    assert run.ran("tests and filters in a condition") == list(HOSTS)


@pytest.mark.parametrize(("task", "shown"), [("a string is not a boolean", "'host1'"), ("a number is not a boolean",
                                                                                         "count")])
def test_a_condition_that_is_not_a_boolean_is_an_error_naming_the_task(run: PlaybookRun, task: str,
                                                                       shown: str) -> None:
    for result in run.task(task).values():
        assert result["failed"] is True
        assert "not a boolean" in result["msg"] and shown in result["msg"]
        assert f"task '{task}'" in result["msg"] and "conditionals.yml:" in result["msg"]


def test_registered_results_keep_the_module_keys(run: PlaybookRun) -> None:
    assert set(run.msg("read the registered result").values()) == {"hello rc=0 changed=False ok=True"}
    assert set(run.msg("read the skipped result").values()) == {"skipped=True"}
    assert set(run.msg("read the loop results").values()) == {"a,b"}


def test_failed_when_decides_failure(run: PlaybookRun) -> None:
    for result in run.task("failed_when accepts rc 1").values():
        assert result["rc"] == 1 and result["failed"] is False and result["failed_when_result"] is False
    for result in run.task("failed_when fails a success").values():
        assert result["rc"] == 0 and result["failed"] is True


def test_registered_results_have_ansibles_shape(run: PlaybookRun) -> None:
    assert set(run.msg("a registered success says it did not fail").values()) == {True}
    assert all(keys == [] for keys in run.msg("a registered loop's items hold only what the task returned").values())


def test_a_false_condition_skips_a_loop_over_an_undefined_variable(run: PlaybookRun) -> None:
    results = run.task("a loop over an undefined variable under a false condition")
    assert all(result.get("skipped") is True for result in results.values()), results
    included = run.task("an include looping over an undefined variable under a false condition")
    assert all(result.get("skipped") is True for result in included.values()), included


def test_a_condition_in_error_fails_the_task_and_keeps_the_modules_result(run: PlaybookRun) -> None:
    for result in run.task("a changed_when that cannot be evaluated").values():
        assert result["failed"] is True and result["stdout"] == "kept"  # as in Ansible
        assert result["changed_when_result"].startswith("Error while evaluating conditional: 'no_such_variable")
        assert "task 'a changed_when that cannot be evaluated' at " in result["changed_when_result"]


def test_failed_when_list_ands_its_items(run: PlaybookRun) -> None:
    for result in run.task("failed_when as a list fails only when every item holds").values():
        assert result["failed"] is False and result["failed_when_result"] is False
    for result in run.task("failed_when as a list whose items all hold").values():
        assert result["failed"] is True and result["failed_when_result"] is True


def test_changed_when_decides_changed(run: PlaybookRun) -> None:
    results = run.task("changed_when from the output")
    assert {host: r["changed"] for host, r in results.items()} == {"host1": True, "host2": False, "host3": False}
    assert all(r["changed"] is False for r in run.task("register a command").values())


def test_until_retries_until_the_condition_holds(run: PlaybookRun, testenv: TestEnv, base: str) -> None:
    for host, result in run.task("until the third attempt").items():
        assert result["attempts"] == 3 and result["stdout"] == "3" and not result.get("failed")
        assert host_file(testenv, host, f"{base}/attempts").read_text() == "x\nx\nx\n"


def test_until_fails_once_retries_are_spent(run: PlaybookRun) -> None:
    for result in run.task("until gives up").values():
        # three tries (the first and two retries), counted as ansible-core counts them once retries run out: the
        # retries asked for
        assert result["failed"] is True and result["attempts"] == 2
