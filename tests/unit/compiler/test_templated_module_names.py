"""A task's module named by a template (``action: "{{ m }} msg=hi"``, ``action: {module: "{{ m }}"}``): rendered
when compiling with what is known then, its arguments then read for that module; a name only the run knows
keeps its arguments as written, for the worker to read per host."""

from __future__ import annotations

import textwrap
from pathlib import Path

from runner.compiler import CompileOptions, Compiler


def _compile(tmp_path: Path, text: str, **extra_vars: str) -> list[tuple[str | None, dict]]:
    (tmp_path / "site.yml").write_text(textwrap.dedent(text))
    plan = Compiler(CompileOptions(extra_vars=extra_vars)).compile_playbooks([tmp_path / "site.yml"])
    return [(task.module, task.args) for task in plan.tasks if task.kind == "task"]


def test_names_known_when_compiling(tmp_path: Path) -> None:
    tasks = _compile(tmp_path, """
        - hosts: all
          vars: {printer: debug}
          tasks:
            - action: "{{ printer }} msg='hello there'"
            - action:
                module: "{{ 'ansible.builtin.' ~ second }}"
                args: {msg: from args}
            - action: {module: "{{ printer }}", args: "{{ some_args }}"}
              vars: {some_args: {msg: later}}
        """, second="debug")
    assert tasks[0] == ("debug", {"msg": "hello there"})
    assert tasks[1] == ("debug", {"msg": "from args"})
    assert tasks[2][0] == "debug" and "{{ some_args }}" in str(tasks[2][1])


def test_a_name_only_the_run_knows_is_kept_with_its_arguments_as_written(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text(textwrap.dedent("""
        - hosts: all
          tasks:
            - set_fact: {later: debug}
            - action: "{{ later }} msg=hi"
              args: {verbosity: 0}
        """))
    plan = Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])
    node = [task for task in plan.tasks if task.kind == "task"][-1]
    assert node.module == "{{ later }}" and node.args == {}
    assert node.written_args == {"module_args": "msg=hi", "args": {"verbosity": 0}}


def test_an_action_mappings_module_may_carry_k_v_words(tmp_path: Path) -> None:
    # ansible-core's order: action.args over the module's k=v words over the discrete arguments over args:
    tasks = _compile(tmp_path, """
        - hosts: all
          tasks:
            - action:
                args: {dest: /from/action/args}
                module: copy dest=/masked content=words
                content: masked
                mode: "0600"
              args: {mode: "0644", owner: root}
        """)
    assert tasks[0] == ("copy", {"dest": "/from/action/args", "content": "words", "mode": "0600", "owner": "root"})
