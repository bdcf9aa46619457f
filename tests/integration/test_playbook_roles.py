"""Roles on a real host (roles.yml): dependencies run first, a role runs once per play unless its parameters
differ or it allows duplicates, and parameters reach the role and its argument_specs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import PLAYBOOKS, PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts
PLAYBOOKS_ROLES = PLAYBOOKS / "roles"


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


def test_argument_specs_are_checked_when_the_role_starts_and_a_failure_can_be_rescued(
        inventory_path: Path, tmp_path: Path) -> None:
    playbook = tmp_path / "site.yml"
    playbook.write_text(f"""\
- hosts: host1
  gather_facts: false
  vars:
    flavour: plain
  tasks:
    - block:
        - import_role: {{name: {PLAYBOOKS_ROLES}/spec}}
          vars: {{listen_port: eighty, flavour: spicy}}
      rescue:
        - debug: {{msg: "{{{{ ansible_failed_result.argument_errors }}}}"}}
          name: rescued
    - include_role: {{name: {PLAYBOOKS_ROLES}/spec}}
      vars: {{listen_port: 81}}
    - import_role: {{name: {PLAYBOOKS_ROLES}/spec, rolespec_validate: false}}
      vars: {{listen_port: 82, flavour: unchecked}}
""")
    run = run_playbook(inventory_path, playbook)
    assert run.exit_code == 0, run.output
    errors = run.msg("rescued")["host1"]
    # every problem is listed, as ansible-core's validator lists them
    assert len(errors) == 2 and "listen_port" in errors[0] + errors[1] and "spicy" in errors[0] + errors[1]
    # the play's flavour counts for the option the role was not given
    assert [hosts["host1"]["msg"] for hosts in run.tasks("spec : announce")] == ["port 81 plain", "port 82 unchecked"]
