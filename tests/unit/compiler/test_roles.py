"""Roles in the compiler: dependency order, once per play per parameter set, parameters, argument_specs, cycles."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError
from runner.plan import Plan, ScopeKind

PLAYBOOKS = Path(__file__).resolve().parents[2] / "data" / "playbooks"


def compile_text(tmp_path: Path, text: str) -> Plan:
    playbook = tmp_path / "site.yml"
    playbook.write_text(text)
    return Compiler(CompileOptions(roles_path=[PLAYBOOKS / "roles"])).compile_playbooks([playbook])


def compile_error(tmp_path: Path, text: str) -> str:
    with pytest.raises(UserError) as caught:
        compile_text(tmp_path, text)
    return caught.value.render()


def play_with_roles(roles: str) -> str:
    return f"- hosts: all\n  gather_facts: false\n  roles:\n{roles}"


def test_dependencies_come_first_and_run_once_per_parameter_set() -> None:
    plan = Compiler(CompileOptions()).compile_playbooks([PLAYBOOKS / "roles.yml"])
    assert [role.name for role in plan.roles] == ["common", "common", "web", "db", "dup", "dup", "spec", "spec",
                                                  "exported"]
    params = [plan.scopes[role.params_scope].vars if role.params_scope is not None else None for role in plan.roles]
    assert params[:2] == [None, {"who": "web"}]
    assert params[6:8] == [{"listen_port": 8080, "flavour": "fancy"}, {"listen_port": "{{ 8000 + 81 }}"}]
    assert all(plan.scopes[s].kind is ScopeKind.ROLE_PARAMS for s in (r.params_scope for r in plan.roles) if s)


def test_a_role_listed_twice_with_the_same_parameters_runs_once(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, play_with_roles("    - common\n    - role: common\n    - role: common\n"
                                                  "      vars: {who: x}\n"))
    assert [role.name for role in plan.roles] == ["common", "common"]


def test_a_dependency_cycle_is_an_error_where_it_closes(tmp_path: Path) -> None:
    message = compile_error(tmp_path, play_with_roles("    - cycle_a\n"))
    assert f"{PLAYBOOKS}/roles/cycle_b/meta/main.yml:1:16: role dependency cycle: cycle_a -> cycle_b -> cycle_a" \
        in message


def validation_args(plan: Plan) -> list[dict[str, object]]:
    return [task.args for task in plan.tasks if task.module == "validate_argument_spec"]


def test_argument_specs_become_the_roles_first_task_given_only_its_parameters(tmp_path: Path) -> None:
    # Checked when the task runs (its failure can be rescued, play vars count), as ansible-core does.
    plan = compile_text(tmp_path, play_with_roles("    - role: spec\n      listen_port: eighty\n"
                                                  "    - role: spec\n      vars: {listen_port: 80}\n"))
    first = next(task for task in plan.tasks if task.module)
    assert first.name == "Validating arguments against arg spec 'main' - A role that checks what it is given"
    assert "always" in first.tags
    checks = validation_args(plan)
    assert [check["provided_arguments"] for check in checks] == [{"listen_port": "eighty"}, {}]
    assert checks[0]["argument_spec"] == {"listen_port": {"type": "int", "required": True},
                                          "flavour": {"type": "str", "choices": ["plain", "fancy"]}}
    assert checks[0]["validate_args_context"] == {"type": "role", "name": "spec", "argument_spec_name": "main",
                                                  "path": str(PLAYBOOKS / "roles" / "spec")}


def test_rolespec_validate_false_leaves_the_check_out(tmp_path: Path) -> None:
    plan = compile_text(tmp_path, "- hosts: all\n  gather_facts: false\n  tasks:\n"
                                  "    - import_role: {name: spec, rolespec_validate: false}\n")
    assert validation_args(plan) == []


def test_a_missing_role_names_where_it_was_looked_for(tmp_path: Path) -> None:
    message = compile_error(tmp_path, play_with_roles("    - nowhere\n"))
    assert f"{tmp_path}/site.yml:4:7: The role 'nowhere' was not found in:" in message


@pytest.mark.parametrize("keyword", ["import_role", "include_role"])
def test_handlers_vars_and_defaults_from_name_the_files_read_instead_of_main(tmp_path: Path, keyword: str) -> None:
    role = tmp_path / "roles" / "r"
    for section, main, other in (("handlers", "- name: main handler\n  debug:\n",
                                  "- name: other handler\n  debug:\n"),
                                 ("vars", "v: main\n", "v: other\n"), ("defaults", "d: main\n", "d: other\n")):
        (role / section).mkdir(parents=True)
        (role / section / "main.yml").write_text(main)
        (role / section / "other.yml").write_text(other)
    (role / "tasks").mkdir()
    (role / "tasks" / "main.yml").write_text("- debug:\n")
    compiler = Compiler(CompileOptions())
    playbook = tmp_path / "site.yml"
    playbook.write_text(f"- hosts: all\n  gather_facts: false\n  tasks:\n"
                        f"    - {keyword}: name=r handlers_from=other.yml vars_from=other defaults_from=other\n")
    plan = compiler.compile_playbooks([playbook])
    if keyword == "include_role":
        include = next(task for task in plan.tasks if task.kind == "include_role")
        compiler.compile_include(include, "r")  # what it adds joins the plan's tables
    names = {task.name for task in plan.tasks}
    assert "other handler" in names and "main handler" not in names
    values = {key: value for scope in plan.scopes for key, value in scope.vars.items() if key in ("v", "d")}
    assert values == {"v": "other", "d": "other"}
