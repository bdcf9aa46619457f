"""An import_tasks file name with variables (runner/compiler/tasks.py): rendered when compiling with what is known
then (extra vars, play vars, the import's own vars, role_path, playbook_dir), as Ansible does, and import_role's
tasks_from too; a name that needs a run-time value is a compile error that says so."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError


def _write(base: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(textwrap.dedent(text))


def test_import_names_known_when_compiling(tmp_path: Path) -> None:
    _write(tmp_path, {
        "roles/r1/tasks/main.yml": "- import_tasks: '{{ role_path }}/extra/{{ which }}.yml'\n",
        "roles/r1/extra/one.yml": "- {name: from the role, debug: {msg: one}}\n",
        "two.yml": "- {name: from the play, debug: {msg: two}}\n",
        "three.yml": "- {name: from extra vars, debug: {msg: three}}\n",
        "site.yml": """
            - hosts: all
              vars: {which: one, second: two.yml}
              roles: [r1]
              tasks:
                - import_tasks: "{{ playbook_dir }}/{{ second }}"
                - import_tasks: "{{ third }}"
            """,
    })
    compiler = Compiler(CompileOptions(extra_vars={"third": "three.yml"}))
    plan = compiler.compile_playbooks([tmp_path / "site.yml"])
    names = [task.name for task in plan.tasks]
    assert {"from the role", "from the play", "from extra vars"} <= set(names)


def test_an_import_name_known_only_at_run_time_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, {"site.yml": """
        - hosts: all
          tasks:
            - set_fact: {later: x}
            - import_tasks: "{{ later }}.yml"
        """})
    with pytest.raises(UserError, match=r"site.yml:5:7: import_tasks is static: .*'later' is undefined"):
        Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])


def test_import_playbook_names_known_when_compiling(tmp_path: Path) -> None:
    _write(tmp_path, {
        "one.yml": "- {hosts: all, name: from extra vars, tasks: []}\n",
        "two.yml": "- {hosts: all, name: from the import's vars, tasks: []}\n",
        "three.yml": "- {hosts: all, name: from playbook_dir, tasks: []}\n",
        "site.yml": """
            - import_playbook: "{{ first }}.yml"
            - import_playbook: "{{ second }}"
              vars: {second: two.yml}
            - import_playbook: "{{ playbook_dir }}/three.yml"
            """,
    })
    plan = Compiler(CompileOptions(extra_vars={"first": "one"})).compile_playbooks([tmp_path / "site.yml"])
    assert [play.name for play in plan.plays] == ["from extra vars", "from the import's vars", "from playbook_dir"]


def test_an_import_playbook_name_known_only_at_run_time_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, {"site.yml": '- import_playbook: "{{ later }}.yml"\n'})
    with pytest.raises(UserError, match=r"site.yml:1:3: import_playbook is static: .*'later' is undefined"):
        Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])


def test_import_role_name_from_the_import_playbooks_vars(tmp_path: Path) -> None:
    _write(tmp_path, {
        "roles/web/tasks/main.yml": "- {name: from the role, debug: {msg: web}}\n",
        "play.yml": "- {hosts: all, tasks: [import_role: {name: '{{ role_to_import }}'}]}\n",
        "site.yml": "- {import_playbook: play.yml, vars: {role_to_import: web}}\n",
    })
    plan = Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])
    assert "from the role" in [task.name for task in plan.tasks]
    _write(tmp_path, {"site.yml": "- import_playbook: play.yml\n"})
    with pytest.raises(UserError, match=r"import_role is static: .*use include_role .*'role_to_import' is undefined"):
        Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])


def test_an_imports_own_vars_and_import_roles_files_render_when_compiling(tmp_path: Path) -> None:
    _write(tmp_path, {
        "tasks.yml": "- {name: imported tasks, debug: {msg: t}}\n",
        "roles/r1/tasks/main.yml": "- {name: role main, debug: {msg: main}}\n",
        "roles/r1/tasks/other.yml": "- {name: role other, debug: {msg: other}}\n",
        "site.yml": """
            - hosts: all
              vars: {play_file: other.yml}
              tasks:
                - import_tasks: "{{ task_file }}"
                  vars: {task_file: tasks.yml}
                - import_role: {name: r1, tasks_from: "{{ play_file }}"}
            """,
    })
    plan = Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])
    names = {task.name for task in plan.tasks}
    assert {"imported tasks", "role other"} <= names and "role main" not in names
