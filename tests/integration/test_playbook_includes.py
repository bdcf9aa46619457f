"""Imports (static, resolved when compiling) against includes (dynamic, resolved per host at run time), on real
hosts (includes.yml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import HOSTS, fresh_dir, host_file
from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def base() -> str:
    return fresh_dir("includes")


@pytest.fixture(scope="module")
def run(inventory_path: Path, base: str) -> PlaybookRun:
    return run_playbook(inventory_path, "includes.yml", "-e", f"base={base}")


def test_imported_playbooks_run_first_with_the_import_vars_and_condition(run: PlaybookRun) -> None:
    assert run.exit_code == 0, run.output
    assert run.report is not None
    assert [play["play"]["name"] for play in run.report["plays"]] == [
        "imported playbook", "imported under a false condition", "imports and includes"]
    assert run.msg("from the imported playbook") == {"host1": "the import's"}
    assert run.ran("Gathering Facts") == [] and run.ran("never, by the import's condition") == []


def test_an_import_copies_its_condition_to_every_task_an_include_evaluates_it_once(run: PlaybookRun) -> None:
    imported, included = run.tasks("after the mark")
    # The import's first task defines the mark, so its second task's copy of the condition is now false.
    assert all(result.get("skipped") for result in imported.values())
    assert {host: result["msg"] for host, result in included.items()} == {h: "included_mark" for h in HOSTS}


def test_an_include_name_is_templated_per_host(run: PlaybookRun, testenv: TestEnv, base: str) -> None:
    made = {host: sorted(p.name for p in host_file(testenv, host, base).iterdir() if p.name in ("web", "db"))
            for host in HOSTS}
    assert made == {"host1": ["web"], "host2": ["db"], "host3": ["db"]}
    assert "/tasks/web.yml for host1\n" in run.output
    assert "/tasks/db.yml for host2" in run.output


def test_an_include_in_a_loop_passes_loop_variables_and_params(run: PlaybookRun) -> None:
    # Task names are templated with what holds for every host, the include's loop variable included.
    assert run.msg("included item x") == {"host1": "x0E"} and run.msg("included item y") == {"host1": "y1E"}
    assert "/tasks/item.yml for host1 => (item=Lx)" in run.output


def test_apply_reaches_the_included_tasks_the_include_keywords_do_not(run: PlaybookRun) -> None:
    assert run.msg("say who") == {"host1": "deploy", "host2": "root"}


def test_include_role_runs_the_role_and_its_handler(run: PlaybookRun, testenv: TestEnv, base: str) -> None:
    assert host_file(testenv, "host1", f"{base}/dynamic.conf").exists()
    assert host_file(testenv, "host1", f"{base}/restarted").exists()
    assert not host_file(testenv, "host2", f"{base}/restarted").exists()


def test_import_role_with_tasks_from(run: PlaybookRun) -> None:
    assert run.msg("svc : other entry point") == {"host1": "other default"}
