"""Keyword values as Ansible reads them: legacy booleans, templates, one-or-many lists, serial, octal."""

from __future__ import annotations

from typing import Any

import pytest

from runner.errors import ParseError
from runner.loader.yaml import load_yaml_text
from runner.models import Play, PlayList, Task, validate


def play(body: str) -> Play:
    (entry,) = validate(PlayList, load_yaml_text(f"- hosts: all\n{body}", "site.yml"), is_module=lambda _: True)
    assert isinstance(entry, Play)
    return entry


@pytest.mark.parametrize(("written", "value"), [
    ("true", True), ("false", False), ("yes", True), ("no", False), ("Yes", True), ("NO", False), ("on", True),
    ("OFF", False), ("'y'", True), ("1", True), ("0", False), ("'{{ use_sudo }}'", "{{ use_sudo }}"),
])
def test_boolean_keywords(written: str, value: Any) -> None:
    assert play(f"  become: {written}\n").become == value


def test_yaml_11_words_are_booleans_everywhere_unless_quoted() -> None:
    tasks = play("  tasks:\n    - debug: {msg: NO}\n    - debug: {msg: 'NO'}\n").tasks
    assert play("  vars: {country: NO, code: 'NO', flag: yes}\n").vars == {"country": False, "code": "NO",
                                                                           "flag": True}
    assert [task.module_args for task in tasks if isinstance(task, Task)] == [{"msg": False}, {"msg": "NO"}]


def test_leading_zero_integers_are_octal() -> None:
    task = play("  tasks:\n    - file: {path: /x, mode: 0644}\n    - file: {path: /y, mode: '0644'}\n").tasks
    assert [t.module_args["mode"] for t in task] == [0o644, "0644"]


@pytest.mark.parametrize(("written", "value"), [
    ("3", [3]), ("'30%'", ["30%"]), ("[1, 5, '50%']", [1, 5, "50%"]), ("'{{ batch }}'", ["{{ batch }}"]),
    ("'2'", [2]), ("'12.5%'", ["12.5%"]),
])
def test_serial(written: str, value: list[Any]) -> None:
    assert play(f"  serial: {written}\n").serial == value


@pytest.mark.parametrize("written", ["-1", "fast", "'%'", "2.5", "[1, {a: 1}]"])
def test_bad_serial(written: str) -> None:
    with pytest.raises(ParseError, match="expected a number of hosts or a percentage such as '30%'"):
        play(f"  serial: {written}\n")


@pytest.mark.parametrize(("written", "value"), [("30", 30.0), ("'30%'", 30.0), ("0", 0.0), ("'{{ p }}'", "{{ p }}")])
def test_max_fail_percentage(written: str, value: Any) -> None:
    assert play(f"  max_fail_percentage: {written}\n").max_fail_percentage == value


@pytest.mark.parametrize(("written", "value"), [
    ("web", ["web"]), ("web, db", ["web", "db"]), ("[web, db]", ["web", "db"]), ("2024", ["2024"]), ("", []),
])
def test_tags_are_a_list_or_a_comma_separated_string(written: str, value: list[str]) -> None:
    assert play(f"  tags: {written}\n").tags == value


@pytest.mark.parametrize(("written", "value"), [
    ("x is defined", ["x is defined"]), ("[a, b]", ["a", "b"]), ("false", [False]), ("", []),
])
def test_conditions_are_a_list(written: str, value: list[Any]) -> None:
    (task,) = play(f"  tasks:\n    - ping:\n      when: {written}\n").tasks
    assert task.when == value


def test_hosts_as_a_pattern_or_a_list() -> None:
    assert play("").hosts == ["all"]
    assert validate(PlayList, load_yaml_text("- hosts: [web, 127.0.0.1]\n", "s.yml"))[0].hosts == ["web", "127.0.0.1"]


def test_vars_as_a_list_of_mappings_are_merged() -> None:
    assert play("  vars:\n    - {a: 1, b: 1}\n    - {b: 2}\n").vars == {"a": 1, "b": 2}


@pytest.mark.parametrize(("body", "message"), [
    ("  port: http\n", "expected an integer, got 'http'"),
    ("  become_user: [root]\n", "expected a string, got a list"),
    ("  environment: [1]\n", "expected a mapping, a list of mappings or a template, got a list"),
    ("  vars: [1]\n", "expected a mapping of variable names to values, got a list"),
    ("  gather_facts: sometimes\n", "expected a boolean (true/false), got 'sometimes'"),
    ("  vars_files: [{a: 1}]\n", "expected a file name or a list of candidate file names, got a mapping"),
])
def test_values_of_the_wrong_kind_say_what_was_expected(body: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        play(body)
    assert (caught.value.position.line, caught.value.message) == (2, message)


def test_numbers_are_accepted_as_text() -> None:
    assert play("  become_user: 1000\n  name: 2024\n").become_user == "1000"
