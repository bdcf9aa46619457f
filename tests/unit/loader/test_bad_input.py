"""The bad-input corpus (tests/data/bad/): each mistake is reported at its file:line:col, saying what was expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ExitCode, ParseError, SourcePosition, UserError
from runner.loader.playbook import load_playbook
from runner.loader.role import find_role, load_role
from runner.models import ParseErrors

BAD = Path(__file__).resolve().parents[2] / "data" / "bad"
MODULES = {"command", "copy", "debug", "file", "shell"}


def is_module(name: str) -> bool:
    return name in MODULES


def load_error(path: Path) -> UserError:
    with pytest.raises(UserError) as caught:
        load_playbook(path, is_module)
    return caught.value


@pytest.mark.parametrize(("name", "line", "column", "message", "hint"), [
    ("malformed.yml", 5, 5, "YAML parsing failed: Did not find expected ',' or '}'", None),
    ("tab_indent.yml", 3, 1, "YAML parsing failed: Found character that cannot start any token "
                             "(tabs are not allowed for indentation)", None),
    ("unknown_keyword.yml", 5, 7, "'become_usr' is not a valid task keyword", "did you mean 'become_user'?"),
    ("two_modules.yml", 5, 7, "a task calls exactly one module; found 'copy' and 'file'",
     "split them into separate tasks"),
    ("no_module.yml", 3, 7, "no module/action detected in task",
     "add one key naming a module, such as 'command: uptime'"),
    ("become_maybe.yml", 2, 11, "expected a boolean (true/false), got 'maybe'", None),
    ("bad_serial.yml", 2, 15, "expected a number of hosts or a percentage such as '30%', got 'lots'", None),
    ("bad_loop_control.yml", 6, 9, "'loop_vars' is not a valid loop_control keyword", "did you mean 'loop_var'?"),
])
def test_each_mistake_is_reported_where_it_was_written(name: str, line: int, column: int, message: str,
                                                       hint: str | None) -> None:
    error = load_error(BAD / name)
    assert isinstance(error, ParseError)
    assert error.exit_code == ExitCode.UNREACHABLE  # Ansible's exit code for a parse error
    assert error.position == SourcePosition(str(BAD / name), line, column)
    assert error.message == message
    assert error.hint == hint


def test_the_rendered_error_shows_the_offending_line_with_a_caret() -> None:
    rendered = load_error(BAD / "become_maybe.yml").render()
    assert rendered.splitlines() == [
        f"ERROR: {BAD / 'become_maybe.yml'}:2:11: expected a boolean (true/false), got 'maybe'",
        "      become: maybe",
        "              ^",
    ]


def test_every_mistake_of_a_file_is_reported_at_once_in_file_order() -> None:
    path = BAD / "many_errors.yml"
    error = load_error(path)
    assert isinstance(error, ParseErrors)
    assert [(e.position.line, e.position.column, e.message, e.hint) for e in error.errors] == [
        (2, 13, "expected 'linear', 'free' or 'host_pinned', got 'fast'", None),
        (5, 13, "expected a condition (a Jinja2 expression or true/false), got a mapping", None),
        (7, 7, "'registr' is not a valid task keyword", "did you mean 'register'?"),
        (8, 3, "'hostz' is not a valid attribute for a Play", "did you mean 'hosts'?"),
        (8, 3, "missing required keyword 'hosts'", None),
    ]
    assert all(e.position.path == str(path) for e in error.errors)
    assert error.message.splitlines()[0] == "5 errors:"
    assert f"{path}:7:7: 'registr' is not a valid task keyword (did you mean 'register'?)" in error.message
    assert error.render().count("ERROR: ") == 5


def test_role_meta_with_an_unknown_key() -> None:
    role_dir = BAD / "roles" / "bad_meta"
    with pytest.raises(ParseError) as caught:
        load_role(role_dir, is_module)
    assert caught.value.position == SourcePosition(str(role_dir / "meta" / "main.yml"), 5, 1)
    assert caught.value.message == "'allow_duplicate' is not a valid role meta keyword"
    assert caught.value.hint == "did you mean 'allow_duplicates'?"


def test_a_missing_role_names_every_place_searched(tmp_path: Path) -> None:
    (tmp_path / "roles" / "webserver" / "tasks").mkdir(parents=True)
    where = SourcePosition("site.yml", 4, 7)
    with pytest.raises(ParseError) as caught:
        find_role("webservr", [tmp_path / "shared"], tmp_path, position=where)
    assert caught.value.message == (
        f"The role 'webservr' was not found in: {tmp_path / 'roles'}:{tmp_path / 'shared'}:{tmp_path}")
    assert caught.value.position == where
    assert caught.value.hint == "did you mean 'webserver'?"


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("", None, None, "expected a list of plays, got an empty value"),
    ("hosts: all\ntasks: []\n", 1, 1, "expected a list of plays, got a mapping"),
    ("- hosts: all\n  vars_prompt:\n    - name: pw\n", 2, 3,
     "'vars_prompt' is not supported; pass the values with --extra-vars (-e) or vars_files"),
    ("- hosts: all\n  tasks:\n    - command: sleep 100\n      async: soon\n", 4, 14,
     "expected an integer, got 'soon'"),
    ("- hosts: all\n  tasks:\n    - shel: ls\n", 3, 7, "couldn't resolve module/action 'shel'"),
    ("- hosts: all\n  tasks:\n    - import_tasks: x.yml\n      loop: [1, 2]\n", 4, 7,
     "'import_tasks' is static and cannot loop; use 'include_tasks' to loop"),
    ("- hosts: all\n  tasks:\n    - include: x.yml\n", 3, 7,
     "'include' was removed from the language; use 'include_tasks' (dynamic) or 'import_tasks' (static)"),
    ("- hosts: all\n  tasks:\n    - import_playbook: x.yml\n", 3, 7,
     "'import_playbook' is only valid at the top level of a playbook, in place of a play"),
    ("- hosts: all\n  tasks:\n    - debug: msg=x\n      loop: items\n", 4, 13,
     "expected a list or a template such as '{{ items }}', got 'items'"),
    ("- hosts: all\n  tasks:\n    - debug: msg=x\n      with_items: [1]\n      loop: [2]\n", 4, 7,
     "a task has one loop; found 'loop' and 'with_items'"),
    ("- hosts: all\n  tasks: {debug: msg=x}\n", 2, 10, "A malformed block was encountered while loading tasks: "
                                                    "a mapping should be a list or None"),
    ("- hosts: []\n", 1, 10, "Hosts list cannot be empty. Please check your playbook"),
    ("- hosts: ' '\n", 1, 10, "Hosts list cannot be empty. Please check your playbook"),
    ("[]\n", 1, 1, "A playbook must contain at least one play"),
    ("- hosts: all\n  pre_tasks: 123\n", 2, 14, "A malformed block was encountered while loading pre_tasks: 123 "
                                                "should be a list or None"),
    ("- hosts: all\n  roles: 123\n", 2, 10, "A malformed role declaration was encountered: expected a list of "
                                            "roles, got 123"),
    ("- hosts: all\n  user: a\n  remote_user: b\n", 2, 3, "both 'user' and 'remote_user' are set for this play. "
                                                          "The use of 'user' is deprecated, and should be removed"),
    ("- hosts: all\n  vars_prompt:\n    - foo: bar\n", 2, 3, "Invalid vars_prompt data structure, missing 'name' "
                                                            "key"),
    ("- hosts: all\n  vars_prompt:\n    - name: x\n", 2, 3, "'vars_prompt' is not supported; pass the values with "
                                                           "--extra-vars (-e) or vars_files"),
    ("- hosts: all\n  order: random\n", 2, 10,
     "expected 'inventory', 'reverse_inventory', 'sorted', 'reverse_sorted' or 'shuffle', got 'random'"),
    ("- hosts: all\n  max_fail_percentage: 120\n", 2, 24, "expected a percentage from 0 to 100, got 120"),
    ("- hosts: all\n  tasks:\n    - debug:\n      register: my-result\n", 4, 17,
     "Invalid variable name 'my-result'"),
    ("- hosts: all\n  vars:\n    web-port: 80\n", 3, 5, "Invalid variable name 'web-port'"),
    ("- hosts: all\n  tasks:\n    - meta: flush_handler\n", 3, 13,
     "expected a meta action (clear_facts, clear_host_errors, end_batch, end_host, end_play, end_role, "
     "flush_handlers, noop, refresh_inventory, reset_connection, role_complete), got 'flush_handler'"),
    ("- hosts: all\n  tasks:\n    - include_role:\n        tasks_from: x\n", 4, 9, "missing required keyword 'name'"),
    ("- hosts: all\n  tasks:\n    - import_role:\n        name: common\n        apply: {tags: [x]}\n", 4, 9,
     "Invalid options for import_role: apply"),  # ansible-core's words; the hint says why
    ("- hosts: all\n  roles:\n    - vars: {a: 1}\n", 3, 7,
     "a role reference needs the role's name: 'role: NAME' (or 'name: NAME')"),
    ("- hosts: all\n  tasks:\n    - copy: [a, b]\n", 3, 13,
     "expected the arguments of 'copy' as a mapping or a string of key=value words, got a list"),
    ("- hosts: all\n  tasks:\n    - action: nosuchmodule a=b\n", 3, 15,
     "couldn't resolve module/action 'nosuchmodule'"),
    ("- include: other.yml\n", 1, 3, "'include' was removed from the language; use 'import_playbook'"),
])
def test_more_mistakes(tmp_path: Path, text: str, line: int | None, column: int | None, message: str) -> None:
    path = tmp_path / "site.yml"
    path.write_text(text)
    error = load_error(path)
    assert (error.position, error.message) == (SourcePosition(str(path), line, column), message)
