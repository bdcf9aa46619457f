"""``notify`` on an import (runner/compiler/tasks.py): the imported tasks notify its handlers unless they name
their own, as Ansible inherits the keyword."""

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
