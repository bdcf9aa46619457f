"""``notify`` on an import, or in an include's ``apply`` (runner/compiler/tasks.py): the tasks notify its
handlers unless they name their own, as Ansible inherits the keyword; ``apply``'s tags given as text are split."""

from __future__ import annotations

import textwrap
from pathlib import Path

from runner.compiler import CompileOptions, Compiler


def test_imported_tasks_inherit_the_imports_notify(tmp_path: Path) -> None:
    (tmp_path / "changes.yml").write_text(textwrap.dedent("""
        - {name: inherits, debug: {msg: a}, changed_when: true}
        - {name: own, debug: {msg: b}, changed_when: true, notify: other}
        """))
    (tmp_path / "site.yml").write_text(textwrap.dedent("""
        - hosts: all
          tasks:
            - import_tasks: changes.yml
              notify: hello
          handlers:
            - {name: hello, debug: {msg: hello}}
            - {name: other, debug: {msg: other}}
        """))
    plan = Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])
    notify = {task.name: task.notify for task in plan.tasks if task.name in ("inherits", "own")}
    assert notify == {"inherits": ["hello"], "own": ["other"]}


def test_an_includes_apply_gives_its_tasks_notify_and_tags(tmp_path: Path) -> None:
    from runner.plan import PlanTask

    (tmp_path / "changes.yml").write_text("- {name: included, debug: {msg: a}, changed_when: true}\n")
    (tmp_path / "site.yml").write_text(textwrap.dedent("""
        - hosts: all
          tasks:
            - include_tasks:
                file: changes.yml
                apply: {notify: hello, tags: "one, two"}
          handlers:
            - {name: hello, debug: {msg: hello}}
        """))
    compiler = Compiler(CompileOptions())
    plan = compiler.compile_playbooks([tmp_path / "site.yml"])
    include = next(task for task in plan.tasks if task.kind == "include_tasks")
    fragment = compiler.compile_include(include, "changes.yml")
    included: PlanTask = next(task for task in fragment.tasks if task.name == "included")
    assert included.notify == ["hello"] and {"one", "two"} <= set(included.tags)
