"""How a task mapping is read: its module, its arguments, its loop, and the language's own actions."""

from __future__ import annotations

import re
from typing import Any

import pytest

from runner.errors import ParseError
from runner.loader.yaml import load_yaml_text
from runner.models import Block, Handler, HandlerList, Task, TaskList, canonical_action, validate

MODULES = {"command", "copy", "debug", "file", "ping", "shell", "stat"}


def read(text: str, target: Any = TaskList) -> Any:
    return validate(target, load_yaml_text(text, "tasks.yml"), is_module=MODULES.__contains__)


def one_task(text: str) -> Task:
    (task,) = read(text)
    assert isinstance(task, Task)
    return task


@pytest.mark.parametrize("text", [
    "- copy: {src: a, dest: b}\n",
    "- ansible.builtin.copy: {src: a, dest: b}\n",
    "- ansible.legacy.copy: {src: a, dest: b}\n",
    "- action: {module: copy, src: a, dest: b}\n",
    "- action: {module: ansible.builtin.copy, src: a, dest: b}\n",
    "- action: {module: copy, args: {src: a, dest: b}}\n",
    "- local_action: {module: copy, src: a, args: 'dest=b'}\n",
])
def test_the_module_is_found_however_it_is_written(text: str) -> None:
    task = one_task(text)
    assert (task.module, dict(task.module_args)) == ("copy", {"src": "a", "dest": "b"})


def test_an_actions_nested_args_must_be_arguments() -> None:
    with pytest.raises(ParseError,
                       match="expected the arguments under 'args' as a mapping, key=value words or a template, got"):
        read("- action: {module: copy, args: [a]}\n")


def test_module_arguments_keep_the_positions_of_their_keys() -> None:
    task = one_task("- name: x\n  copy:\n    src: a\n    dest: b\n")
    assert task.module_position is not None and (task.module_position.line, task.module_position.column) == (2, 3)
    assert task.module_args.lc.key("dest") == (3, 4)  # ruamel's 0-based line/column, for the compiler's errors


def test_free_form_and_args_keyword_are_kept_apart_for_the_compiler_to_merge() -> None:
    task = one_task("- command: echo {{ greeting }} chdir=/tmp\n  args:\n    creates: /tmp/done\n")
    assert task.module_args == "echo {{ greeting }} chdir=/tmp"
    assert task.args == {"creates": "/tmp/done"}


def test_a_module_with_no_arguments_has_an_empty_mapping() -> None:
    assert one_task("- ping:\n").module_args == {}


def test_templated_args_keyword() -> None:
    assert one_task("- stat:\n  args: '{{ stat_args }}'\n").args == "{{ stat_args }}"


def test_local_action_runs_on_the_controller() -> None:
    task = one_task("- local_action: command hostname\n")
    assert (task.module, task.module_args, task.delegate_to) == ("command", "hostname", "localhost")


@pytest.mark.parametrize(("key", "lookup"), [
    ("with_items", "items"), ("with_list", "list"), ("with_fileglob", "fileglob"), ("with_sequence", "sequence"),
    ("with_subelements", "subelements"), ("with_together", "together"), ("with_nested", "nested"),
    ("with_indexed_items", "indexed_items"), ("with_first_found", "first_found"), ("with_my_lookup", "my_lookup"),
])
def test_with_any_lookup_is_a_loop(key: str, lookup: str) -> None:
    task = one_task(f"- debug: var=item\n  {key}: [a, b]\n")
    assert (task.loop, task.loop_with) == (["a", "b"], lookup)


def test_with_lookup_terms_may_be_a_string() -> None:
    task = one_task("- debug: var=item\n  with_sequence: start=1 end=3\n")
    assert (task.loop, task.loop_with) == ("start=1 end=3", "sequence")


def test_special_actions_do_not_ask_the_module_library() -> None:
    asked: list[str] = []

    def is_module(name: str) -> bool:
        asked.append(name)
        return False

    text = "- include_tasks: a.yml\n- ansible.builtin.import_role: {name: r}\n- meta: noop\n- include_vars: v.yml\n"
    tasks = validate(TaskList, load_yaml_text(text, "t.yml"), is_module=is_module)
    assert [task.module for task in tasks] == ["include_tasks", "import_role", "meta", "include_vars"]
    assert asked == []


def test_include_tasks_with_apply_and_free_form_role_imports() -> None:
    include, role = read("- include_tasks:\n    file: x.yml\n    apply: {become: true}\n"
                         "- import_role: name=common tasks_from=setup\n")
    assert (include.include.file, include.include.apply) == ("x.yml", {"become": True})
    assert (role.include.name, role.include.tasks_from) == ("common", "setup")


def test_a_role_include_may_name_its_role_with_role_as_in_ansible() -> None:
    include, imported = read("- include_role:\n    role: web\n    tasks_from: t\n- import_role: role=db\n")
    assert (include.include.name, include.include.tasks_from) == ("web", "t")
    assert imported.include.name == "db"


def test_blocks_nest_and_are_told_from_tasks_by_block_rescue_or_always() -> None:
    outer, rescue_only = read("- block:\n    - block:\n        - ping:\n    - debug: msg=x\n"
                              "- rescue:\n    - ping:\n")
    assert isinstance(outer, Block) and isinstance(outer.block[0], Block) and isinstance(outer.block[1], Task)
    assert isinstance(rescue_only, Block) and rescue_only.block == [] and len(rescue_only.rescue) == 1


def test_a_block_does_not_take_task_keywords() -> None:
    with pytest.raises(ParseError) as caught:
        read("- block:\n    - ping:\n  register: out\n")
    assert (caught.value.position.line, caught.value.message) == (3, "'register' is not a valid attribute for a Block")


def test_listen_is_for_handlers_only() -> None:
    (handler,) = read("- name: h\n  ping:\n  listen: topic\n", HandlerList)
    assert isinstance(handler, Handler) and handler.listen == ["topic"]
    with pytest.raises(ParseError, match="'listen' is not a valid task keyword"):
        read("- name: h\n  ping:\n  listen: topic\n")


def test_keyword_table_is_declared_once_and_shared() -> None:
    task_keywords = Task.keywords()
    assert task_keywords["register"] == "register_var"
    assert {"when", "become_user", "delegate_to", "notify", "loop_control", "tags"} <= set(task_keywords)
    assert {"module", "module_args", "position", "loop_with"}.isdisjoint(task_keywords)
    assert set(Block.keywords()) < set(Task.keywords()) | {"block", "rescue", "always"}
    assert set(Handler.keywords()) == set(task_keywords) | {"listen"}


def test_canonical_action_names() -> None:
    assert canonical_action("ansible.builtin.shell") == "shell"
    assert canonical_action("community.general.ufw") == "community.general.ufw"


def test_a_role_file_named_by_a_list_is_an_error_in_ansible_cores_words() -> None:
    with pytest.raises(ParseError, match=r"Expected a string for vars_from but got <class 'list'> instead"):
        one_task("- include_role:\n    name: r\n    vars_from:\n      - vars_1.yml\n")


def test_argument_names_starting_with_ansibles_internal_prefix_are_refused() -> None:
    with pytest.raises(ParseError, match=re.escape(
            "tasks.yml:1:3: Invalid parameter specified beginning with keyword '_ansible_' for action 'copy': "
            "'_ansible_x'. The prefix '_ansible_' is reserved for internal use only.")):
        read("- copy: {src: a, _ansible_x: 1}\n")
    assert one_task("- command: echo _ansible_x=1\n").module == "command"  # free-form words are no names


@pytest.mark.parametrize("written", ["ansible.builtin.include_tasks", "import_tasks"])
def test_an_include_without_a_file_is_ansible_cores_error_at_the_task(written: str) -> None:
    with pytest.raises(ParseError, match=f"tasks.yml:2:3: No file specified for {written}"):
        read(f"- debug: msg=x\n- name: no file\n  {written}:\n")
