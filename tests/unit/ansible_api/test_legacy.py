"""Modules of Ansible's older kinds told apart as ansible-core tells them, and their arguments files."""

from __future__ import annotations

import json
import shlex

import pytest

from runner.ansible_api.arguments import ModuleRunContext
from runner.ansible_api.legacy import interpreter_line, legacy_arguments_text, legacy_call, legacy_style


@pytest.mark.parametrize(("data", "python_file", "style"), [
    (b"\x7fELF\x02\x01\x01\x00\x00\x00", False, "binary"),
    (b"#!/bin/sh\n# WANT_JSON\ncat $1\n", False, "want_json"),
    (b"#!/bin/sh\n. $1\n", False, "old"),
    (b"#!/usr/bin/python\nimport sys\nprint(open(sys.argv[1]).read())\n", True, "old"),
    (b"ARGUMENT_SPEC = {}\n\ndef run(module):\n    return {}\n", True, None),
    (b'ACTION = "debug"\n', True, None),
])
def test_the_kind_of_a_library_module(data: bytes, python_file: bool, style: str | None) -> None:
    assert legacy_style(data, python_file=python_file) == style


def test_an_old_style_modules_arguments_are_shell_quoted_key_value_pairs() -> None:
    text = legacy_arguments_text("old", {"name": "big world", "n": 1}, ModuleRunContext("m", check=True))
    pairs = dict(item.split("=", 1) for item in shlex.split(text))
    assert pairs["name"] == "big world" and pairs["n"] == "1" and pairs["_ansible_check_mode"] == "True"


def test_a_want_json_modules_arguments_are_json_with_ansibles_internal_keys() -> None:
    arguments = json.loads(legacy_arguments_text("want_json", {"x": [1, 2]}, ModuleRunContext("m", diff=True)))
    assert arguments["x"] == [1, 2] and arguments["_ansible_diff"] is True
    assert arguments["_ansible_module_name"] == "m"


def test_the_interpreter_line_and_a_script_without_one() -> None:
    assert interpreter_line(b"#!/usr/bin/env bash -e\necho\n") == ["/usr/bin/env", "bash", "-e"]
    assert interpreter_line(b"echo\n") is None
    assert legacy_call("old", "x", b"echo hi\n", {}, ModuleRunContext("x")) == "module (x) is missing interpreter line"


def test_a_configured_interpreter_replaces_the_lines_program_and_runs_as_it_is() -> None:
    """The task's ``ansible_<name>_interpreter`` (runner.executor.interpreter_discovery.shebang_interpreter)
    replaces the ``#!`` line's program, its arguments kept, and runs even when it names another Python than the
    agent's (modules/_legacy_module.py), as ansible-core rewrites the line."""
    from modules._legacy_module import _command

    call = legacy_call("want_json", "m", b"#!actually_python -u\n# WANT_JSON\n", {}, ModuleRunContext("m"),
                       "/usr/bin/python3.11 -E")
    assert isinstance(call, dict)
    assert call["interpreter"] == ["/usr/bin/python3.11", "-E", "-u"] and call["configured"] is True
    assert _command({**call, "style": "want_json"}, "/tmp/m", "/tmp/args") == [
        "/usr/bin/python3.11", "-E", "-u", "/tmp/m", "/tmp/args"]
    plain = legacy_call("want_json", "m", b"#!/usr/bin/python3\n# WANT_JSON\n", {}, ModuleRunContext("m"))
    assert isinstance(plain, dict) and "configured" not in plain
