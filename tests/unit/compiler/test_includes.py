"""Imports and includes in the compiler: what is resolved now, what an include adds at run time (a PlanFragment),
what included tasks inherit, and --start-at-task's choice of skipped tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError
from runner.executor.start_at import any_match, skipped_before
from runner.plan import Plan, PlanTask

PLAYBOOKS = Path(__file__).resolve().parents[2] / "data" / "playbooks"


def compiled(name: str, **options: object) -> tuple[Compiler, Plan]:
    compiler = Compiler(CompileOptions(**options))  # type: ignore[arg-type]
    return compiler, compiler.compile_playbooks([PLAYBOOKS / name])


def node(plan: Plan, name: str) -> PlanTask:
    return next(task for task in plan.tasks if task.name == name)


def test_import_playbook_and_import_tasks_are_resolved_when_compiling() -> None:
    _, plan = compiled("includes.yml")
    assert [play.name for play in plan.plays] == [
        "imported playbook", "imported under a false condition", "imports and includes"]
    assert plan.plays[0].tags == ["imported_playbook"] and node(plan, "from the imported playbook").tags == [
        "imported_playbook"]
    assert [task.when for task in plan.tasks if task.name in ("Gathering Facts", "never, by the import's condition")
            ] == [[False], [False]]
    imported = [task for task in plan.tasks if task.name in ("set the mark", "after the mark")]
    assert [task.when for task in imported] == [["imported_mark is not defined"]] * 2
    assert node(plan, "include with a condition").kind == "include_tasks"


def test_an_include_adds_a_fragment_that_inherits_from_its_parents_not_from_itself() -> None:
    compiler, plan = compiled("includes.yml")
    fragment = compiler.compile_include(node(plan, "include keywords stay on the include"), "tasks/whoami.yml")
    assert [task.name for task in fragment.tasks] == ["who am i", "say who"]
    assert all(task.become is None and task.when == [] for task in fragment.tasks)
    applied = compiler.compile_include(node(plan, "include with apply"), "tasks/whoami.yml")
    assert all(task.become is True and task.become_user == "deploy" for task in applied.tasks)
    assert fragment.tasks[0].id == len(plan.tasks) - 4  # ids continue the plan's table


def test_an_included_role_brings_its_role_and_handlers() -> None:
    compiler, plan = compiled("includes.yml")
    roles_before = len(plan.roles)
    fragment = compiler.compile_include(node(plan, "include a role"), "svc")
    assert [role.name for role in fragment.roles] == ["svc"] and plan.roles[roles_before:] == fragment.roles
    assert [plan.tasks[h].name for h in fragment.handlers] == ["restart svc"]
    assert [task.name for task in fragment.tasks if task.id not in fragment.handlers] == ["configure"]
    assert all(task.role == roles_before for task in fragment.tasks)


def test_a_failed_include_leaves_the_plan_as_it_was() -> None:
    compiler, plan = compiled("includes.yml")
    sizes = len(plan.tasks), len(plan.scopes), len(plan.roles)
    with pytest.raises(UserError, match=r"Could not find or access '.*/tasks/none\.yml' on the Ansible Controller"):
        compiler.compile_include(node(plan, "include by host"), "tasks/none.yml")
    with pytest.raises(UserError, match="The role 'none' was not found"):
        compiler.compile_include(node(plan, "include a role"), "none")
    assert (len(plan.tasks), len(plan.scopes), len(plan.roles)) == sizes


def test_include_path_names_the_file_an_include_tasks_finds() -> None:
    # ansible-core's ``included:`` line names the file found, not the name as written; a role stays its name.
    compiler, plan = compiled("includes.yml")
    found = compiler.include_path(node(plan, "include by host"), "tasks/web.yml")
    assert Path(found).is_absolute() and Path(found) == (PLAYBOOKS / "tasks" / "web.yml").resolve()
    assert compiler.include_path(node(plan, "include by host"), "tasks/none.yml") == "tasks/none.yml"
    assert compiler.include_path(node(plan, "include a role"), "web") == "web"


@pytest.mark.parametrize("written", ["include_role", "ansible.builtin.import_role"])
def test_a_role_as_a_handler_is_an_error_where_it_is_written(tmp_path: Path, written: str) -> None:
    playbook = tmp_path / "play.yml"
    playbook.write_text(f"- hosts: all\n  handlers:\n    - name: h\n      {written}:\n        name: any\n")
    with pytest.raises(UserError, match=rf"play\.yml:3:7: Using '{written}' as a handler is not supported\."):
        Compiler(CompileOptions()).compile_playbooks([playbook])


def test_a_block_among_handlers_is_an_error_but_the_sections_own_blocks(tmp_path: Path) -> None:
    # As ansible-core: a handlers section's blocks group handlers; a block in one, or in an imported file, is
    # refused when the play is read.
    (tmp_path / "more.yml").write_text("- block:\n    - debug:\n")
    playbook = tmp_path / "play.yml"
    grouped = "- hosts: all\n  handlers:\n    - block:\n        - name: h\n          debug:\n"
    playbook.write_text(grouped)
    Compiler(CompileOptions()).compile_playbooks([playbook])
    playbook.write_text(grouped + "        - block:\n            - debug:\n")
    with pytest.raises(UserError, match=r"play\.yml:6:11: Using a block as a handler is not supported\."):
        Compiler(CompileOptions()).compile_playbooks([playbook])
    playbook.write_text("- hosts: all\n  handlers:\n    - import_tasks: more.yml\n")
    with pytest.raises(UserError, match=r"more\.yml:1:3: Using a block as a handler is not supported\."):
        Compiler(CompileOptions()).compile_playbooks([playbook])
    playbook.write_text("- hosts: all\n  handlers:\n    - name: h\n      include_tasks: more.yml\n")
    compiler = Compiler(CompileOptions())
    plan = compiler.compile_playbooks([playbook])
    with pytest.raises(UserError, match=r"more\.yml:1:3: Using a block as a handler is not supported\."):
        compiler.compile_include(node(plan, "h"), "more.yml")


def test_an_include_is_selected_by_its_own_tags() -> None:
    _, plan = compiled("tags.yml", tags=["file"])
    names = [task.name for task in plan.tasks]
    assert "include tagged included" not in names and "from a file" in names
    _, plan = compiled("tags.yml", tags=["included"])
    assert "include tagged included" in [task.name for task in plan.tasks]


def test_start_at_task_skips_what_comes_before_the_first_match() -> None:
    _, plan = compiled("start_at.yml")
    assert skipped_before(plan, plan.plays[0], "Start here*") is None
    skipped = skipped_before(plan, plan.plays[1], "Start here*")
    assert skipped is not None
    assert sorted(plan.tasks[i].name for i in skipped) == ["early", "in the block before"]
    assert skipped_before(plan, plan.plays[1], "late") == {node(plan, n).id for n in (
        "early", "in the block before", "Start here please", "in the block after", "always of the block")}
    assert any_match(plan, "next play task") and not any_match(plan, "start here*")  # case matters, as in Ansible


def test_start_at_task_matches_role_task_titles() -> None:
    _, plan = compiled("roles.yml")
    skipped = skipped_before(plan, plan.plays[0], "db : announce")
    assert skipped is not None and len(skipped) == 3  # common twice and web
