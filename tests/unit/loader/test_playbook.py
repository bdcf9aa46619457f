"""Good playbooks load into the right models: every keyword, octal modes, strings that look like booleans."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.errors import SourcePosition
from runner.loader.playbook import load_playbook, load_task_file
from runner.models import Block, Handler, HandlerBlock, Play, PlaybookImport, RoleInclude, Task, TasksInclude

GOOD = Path(__file__).resolve().parents[2] / "data" / "good"
MODULES = {"apt", "command", "copy", "debug", "file", "service", "shell"}


def is_module(name: str) -> bool:
    return name in MODULES


def typed(include: TasksInclude | RoleInclude | None) -> dict[str, Any]:
    assert include is not None
    return {"kind": type(include).__name__, **include.model_dump()}


@pytest.fixture(scope="module")
def play() -> Play:
    playbook = load_playbook(GOOD / "every_keyword.yml", is_module)
    assert len(playbook.entries) == 3
    return playbook.plays[0]


def test_play_keywords(play: Play) -> None:
    assert play.name == "Web servers"
    assert play.hosts == ["web", "db"]
    assert play.vars == {"http_port": 8080, "country": False}  # YAML 1.1, as Ansible reads it
    assert play.vars_files == ["vars/common.yml", ["vars/{{ ansible_os_family }}.yml", "vars/default.yml"]]
    assert (play.gather_facts, play.gather_subset, play.gather_timeout) == (False, ["!all", "min"], 20)
    assert play.fact_path == "/etc/ansible/facts.d"
    assert play.serial == [1, "30%", "{{ batch }}"]
    assert (play.strategy, play.max_fail_percentage, play.any_errors_fatal) == ("free", 25.0, False)
    assert (play.become, play.become_user, play.become_method, play.become_flags) == (True, "root", "sudo", "-H -S")
    assert (play.remote_user, play.connection, play.port) == ("deploy", "ssh", 2222)
    assert play.environment == {"LANG": "C"}
    assert play.module_defaults == {"file": {"owner": "root"}}
    assert play.tags == ["web", "always"]
    assert (play.check_mode, play.diff, play.ignore_unreachable, play.ignore_errors) == (False, True, True, False)
    assert (play.force_handlers, play.order, play.run_once, play.no_log) == (True, "sorted", False, False)
    assert (play.collections, play.throttle, play.timeout) == (["community.general"], 5, 30)
    assert play.position == SourcePosition(str(GOOD / "every_keyword.yml"), 2, 3)


def test_roles_as_names_and_as_mappings_with_parameters(play: Play) -> None:
    common, nginx = play.roles
    assert (common.role, common.params, common.position.line) == ("common", {}, 40)
    assert nginx.role == "nginx"
    assert nginx.vars == {"worker_processes": 2}
    assert nginx.tags == ["nginx"]
    assert nginx.when == ['ansible_os_family == "Debian"']
    assert nginx.params == {"listen_port": 80}


def test_task_with_every_task_keyword(play: Play) -> None:
    task = play.tasks[0]
    assert isinstance(task, Task)
    assert task.module == "apt"  # ansible.builtin. dropped
    assert task.module_args == {"name": "{{ packages }}", "state": "present"}
    assert task.module_position == SourcePosition(str(GOOD / "every_keyword.yml"), 53, 7)
    assert task.become == "{{ use_become }}"  # templates stay strings, checked when templated
    assert (task.become_user, task.become_method, task.become_flags) == ("admin", "su", "-l")
    assert task.when == ['ansible_os_family == "Debian"', True]
    assert (task.loop, task.loop_with) == ("{{ package_groups }}", None)
    control = task.loop_control
    assert control is not None
    assert (control.loop_var, control.index_var, control.label, control.pause, control.extended) == (
        "group", "idx", "{{ group.name }}", 0.5, True)
    assert task.register_var == "installed"
    assert task.changed_when == ["installed.rc == 0"]
    assert task.failed_when == ["installed.rc > 1", "'error' in installed.stderr"]
    assert task.until == ["installed is succeeded"]
    assert (task.retries, task.delay) == (3, 5)
    assert (task.ignore_errors, task.ignore_unreachable) == (True, False)
    assert task.notify == ["restart nginx", "reload firewall"]
    assert task.tags == ["packages", "install"]
    assert (task.delegate_to, task.delegate_facts, task.run_once, task.no_log) == (
        "{{ groups.db[0] }}", True, True, True)
    assert task.environment == {"http_proxy": "http://proxy:3128"}
    assert (task.check_mode, task.diff, task.throttle, task.timeout) == (False, False, 2, 60)
    assert (task.vars, task.any_errors_fatal) == ({"extra": 1}, True)
    assert (task.remote_user, task.connection, task.port) == ("ops", "local", 22)


def test_free_form_arguments_stay_a_string_for_later_splitting(play: Play) -> None:
    touch = play.tasks[1]
    assert (touch.module, touch.module_args) == ("file", "path=/tmp/x mode=0644 state=touch")
    shell = play.tasks[3]
    assert (shell.module, shell.module_args, shell.args) == ("shell", "echo hello", {"chdir": "/tmp"})
    assert (shell.loop, shell.loop_with) == (["a", "b"], "items")


def test_octal_modes_as_yaml_1_1_reads_them(play: Play) -> None:
    assert play.tasks[2].module_args["mode"] == 0o2770


def test_action_and_local_action(play: Play) -> None:
    action, local = play.tasks[4], play.tasks[5]
    assert (action.module, action.module_args, action.delegate_to) == ("copy", "src=a dest=b", None)
    assert (local.module, local.module_args, local.delegate_to) == ("command", {"cmd": "uptime"}, "localhost")
    with_dict = play.tasks[6]
    assert (with_dict.loop, with_dict.loop_with) == ({"a": 1}, "dict")


def test_block_with_rescue_and_always(play: Play) -> None:
    block = play.tasks[7]
    assert isinstance(block, Block)
    assert [task.module_args for task in block.block + block.rescue + block.always] == [
        "msg=in block", "msg=rescued", "msg=always"]
    assert (block.name, block.when, block.become, block.notify, block.tags) == (
        "A block", ["run_block | bool"], True, ["restart nginx"], ["blocky"])


def test_includes_and_imports_are_checked_and_typed(play: Play) -> None:
    include_tasks, import_tasks, include_role, import_role, include_vars, meta = play.tasks[8:14]
    assert typed(include_tasks.include) == {"kind": "TasksInclude", "file": "{{ item }}.yml", "apply": None}
    assert include_tasks.loop == ["one", "two"]
    assert typed(import_tasks.include) == {"kind": "TasksInclude", "file": "other.yml", "apply": None}
    assert typed(include_role.include) == {
        "kind": "RoleInclude", "name": "helper", "tasks_from": "setup", "vars_from": None, "defaults_from": None,
        "handlers_from": None, "public": None, "allow_duplicates": None, "rolespec_validate": None,
        "rescuable": None, "apply": {"tags": ["helper"]}}
    assert isinstance(import_role.include, RoleInclude)
    assert (import_role.include.name, import_role.include.tasks_from) == ("common", "install.yml")
    assert (include_vars.module, include_vars.module_args, include_vars.include) == (
        "include_vars", "vars/extra.yml", None)
    assert (meta.module, meta.module_args) == ("meta", "flush_handlers")


def test_pre_and_post_tasks_and_handlers(play: Play) -> None:
    assert [(task.module, task.check_mode, task.changed_when) for task in play.pre_tasks] == [
        ("command", False, [False])]
    assert play.post_tasks[0].module == "debug"
    restart, reload, block = play.handlers
    assert isinstance(restart, Handler) and isinstance(block, HandlerBlock)
    assert (restart.name, restart.listen) == ("restart nginx", ["web restarts"])
    assert reload.listen == ["fw", "firewall"]
    nested = block.block[0]
    assert isinstance(nested, Handler) and nested.listen == ["nested"]


def test_import_playbook_entries_are_kept_for_the_compiler() -> None:
    playbook = load_playbook(GOOD / "every_keyword.yml", is_module)
    first, second = playbook.entries[1:]
    assert isinstance(first, PlaybookImport) and isinstance(second, PlaybookImport)
    assert (first.import_playbook, first.vars, first.when, first.tags) == (
        "other.yml", {"a": 1}, ["deploy | bool"], ["imported"])
    assert first.position == SourcePosition(str(GOOD / "every_keyword.yml"), 151, 3)
    assert second.import_playbook == "{{ next }}.yml"
    assert playbook.directory == GOOD


def test_whether_a_key_is_a_module_is_the_callers_answer(tmp_path: Path) -> None:
    path = tmp_path / "tasks.yml"
    path.write_text("- my_custom_module: {a: 1}\n")
    with pytest.raises(Exception, match="couldn't resolve module/action 'my_custom_module'"):
        load_task_file(path, is_module)
    (task,) = load_task_file(path, lambda name: name == "my_custom_module")
    assert (task.module, task.module_args) == ("my_custom_module", {"a": 1})


def test_an_empty_task_file_has_no_tasks(tmp_path: Path) -> None:
    path = tmp_path / "empty.yml"
    path.write_text("# nothing yet\n")
    assert load_task_file(path, is_module) == []


def test_model_dump_leaves_positions_out(play: Play) -> None:
    dumped = play.tasks[1].model_dump()
    assert "position" not in dumped and "module_position" not in dumped
    assert dumped["module"] == "file"
