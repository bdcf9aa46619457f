"""The compiled plan: its JSON Schema is current, and what --plan writes fits it and reads back as a Plan."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from runner.cli.playbook import main
from runner.compiler import CompileOptions, Compiler
from runner.models.schemas import SCHEMA_DIR
from runner.plan import PLAN_VERSION, Plan
from runner.plan import schema as plan_schema
from tests.support.local_project import play_locally

PLAYBOOKS = Path(__file__).resolve().parents[2] / "data" / "playbooks"
CONFIG = {"PROVISIONING_CONFIG": str(PLAYBOOKS / "provisioning.cfg")}


def compile_playbook(name: str) -> Plan:
    return Compiler(CompileOptions(roles_path=[PLAYBOOKS / "roles"])).compile_playbooks([PLAYBOOKS / name])


def test_the_committed_plan_schema_is_current() -> None:
    assert plan_schema.stale() == [], "run: python -m runner.plan.schema"


def test_check_reports_a_stale_plan_schema(tmp_path: Path) -> None:
    assert plan_schema.main(["--dir", str(tmp_path)]) == 0
    assert plan_schema.main(["--check", "--dir", str(tmp_path)]) == 0
    (tmp_path / "plan.schema.json").write_text("{}\n")
    assert plan_schema.main(["--check", "--dir", str(tmp_path)]) == 1


@pytest.mark.parametrize("playbook", ["includes.yml", "roles.yml", "handlers.yml", "blocks.yml", "loops.yml",
                                      "precedence.yml"])
def test_compiled_plans_fit_the_schema(playbook: str) -> None:
    schema = json.loads((SCHEMA_DIR / "plan.schema.json").read_text())
    jsonschema.validate(compile_playbook(playbook).model_dump(mode="json"), schema)


def test_plan_option_writes_the_plan_without_an_inventory(tmp_path: Path) -> None:
    target = tmp_path / "plan.json"
    result = CliRunner().invoke(main, [str(PLAYBOOKS / "roles.yml"), "--plan", str(target)], env=CONFIG)
    assert result.exit_code == 0, result.output
    data = json.loads(target.read_text())
    jsonschema.validate(data, json.loads((SCHEMA_DIR / "plan.schema.json").read_text()))
    plan = Plan.model_validate(data)
    assert plan.version == PLAN_VERSION
    assert [role.name for role in plan.roles][:3] == ["common", "common", "web"]
    assert plan == compile_playbook("roles.yml").model_copy(update={"playbook": plan.playbook})


def test_a_plan_rejects_unknown_fields() -> None:
    data = compile_playbook("tags.yml").model_dump(mode="json")
    data["tasks"][0]["colour"] = "blue"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, json.loads((SCHEMA_DIR / "plan.schema.json").read_text()))


def test_an_unnamed_tasks_header_shows_its_module_as_written(tmp_path: Path) -> None:
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - ansible.builtin.debug: msg=a
            - action: ansible.builtin.debug msg=b
            - debug: msg=c
            - name: named
              ansible.builtin.debug: msg=d
        """)
    assert run.exit_code == 0, run.output
    # as ansible-core shows them; the plan's module stays the resolved one
    assert run.task_headers() == ["ansible.builtin.debug", "ansible.builtin.debug", "debug", "named"]
