"""Roles on a real host (roles.yml): dependencies run first, a role runs once per play unless its parameters
differ or it allows duplicates, and parameters reach the role and its argument_specs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def run(inventory_path: Path) -> PlaybookRun:
    return run_playbook(inventory_path, "roles.yml")


def test_roles_run_after_their_dependencies_once_per_parameter_set(run: PlaybookRun) -> None:
    assert run.exit_code == 0, run.output
    said = [hosts["host1"]["msg"] for name in ("common : announce", "web : announce", "db : announce")
            for hosts in run.tasks(name)]
    # common twice (no parameters, then who=web), web; db's dependency on common ran already with no parameters.
    assert said == ["common -", "common web", "web as web", "db"]
    order = run.task_headers()
    assert order[:4] == ["common : announce", "common : announce", "web : announce", "db : announce"]


def test_allow_duplicates_runs_a_role_each_time_it_is_listed(run: PlaybookRun) -> None:
    assert len(run.tasks("dup : announce")) == 2


def test_role_parameters_and_reference_vars_reach_the_role(run: PlaybookRun) -> None:
    assert [hosts["host1"]["msg"] for hosts in run.tasks("spec : announce")] == ["port 8080 fancy", "port 8081 plain"]


def test_an_imported_roles_defaults_and_vars_belong_to_the_whole_play(run: PlaybookRun) -> None:
    for name in ("before the import", "after the import"):
        assert [hosts["host1"]["msg"] for hosts in run.tasks(name)] == ["8443 edge"], name
    assert [hosts["host1"]["msg"] for hosts in run.tasks("exported : inside")] == ["8443 edge"] * 3


def test_an_included_roles_variables_reach_later_tasks_only_when_public(run: PlaybookRun) -> None:
    assert [hosts["host1"]["msg"] for hosts in run.tasks("after a private include")] == ["hidden"]
    assert [hosts["host1"]["msg"] for hosts in run.tasks("after a public include")] == ["8443 edge"]
