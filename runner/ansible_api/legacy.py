"""Modules of Ansible's older kinds, in a playbook's or role's ``library/``: run as ansible-core runs them.

ansible-core (``executor/module_common.py``) tells them apart by their bytes: a binary file (a compiled program)
gets its arguments as a JSON file; a text file with ``WANT_JSON`` in it (a script in any language) gets a JSON
file too; any other script (``old`` style) gets a file of ``key=value`` pairs, shell-quoted. The script runs with
the interpreter of its ``#!`` line, the file's path and the arguments file's path as its arguments, and prints
its result as JSON. A Python interpreter line (``#!/usr/bin/python``) runs with the host's Python the agent runs
on, as Ansible runs it with the discovered interpreter.

The host side is the shipped helper ``modules/_legacy_module.py``, which gets the file and its arguments in
one call and runs it in a directory of its own.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
from typing import Any

from runner.ansible_api.arguments import ModuleRunContext, module_args

# ansible-core's binary sniffing: a control byte (other than common whitespace and ESC) in the first KiB.
_TEXT_BYTES = bytes(sorted(set([7, 8, 9, 10, 12, 13, 27]) | set(range(0x20, 0x100)) - {0x7F}))
# A native module of this project: it defines run(module), its argument spec or a controller-side action.
_NATIVE = re.compile(rb"^(def run\(|ARGUMENT_SPEC\s*=|ACTION\s*=)", re.M)

BINARY, WANT_JSON, OLD = "binary", "want_json", "old"


def is_binary(data: bytes) -> bool:
    return bool(data[:1024].translate(None, _TEXT_BYTES))


def legacy_style(data: bytes, *, python_file: bool) -> str | None:
    """``binary``, ``want_json`` or ``old`` for a module of those kinds; None for a native module (a ``.py``
    file defining ``run(module)``, ``ARGUMENT_SPEC`` or ``ACTION``), which the caller tells from Ansible-API
    modules beforehand."""
    if is_binary(data):
        return BINARY
    if python_file and _NATIVE.search(data):
        return None
    if b"WANT_JSON" in data:
        return WANT_JSON
    return OLD


def interpreter_line(data: bytes) -> list[str] | None:
    """The ``#!`` line's interpreter and its arguments; None without one."""
    if not data.startswith(b"#!"):
        return None
    line = data[2:].split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    return line.split() or None


def legacy_arguments_text(style: str, params: dict[str, Any], context: ModuleRunContext) -> str:
    """The arguments file's content: the task's arguments and Ansible's ``_ansible_*`` keys, as JSON, or as
    ``key=value`` pairs (values shell-quoted) for an old-style module."""
    arguments = module_args(params, context, all_internal=True)
    if style == OLD:
        return "".join(f"{key}={shlex.quote(str(value))} " for key, value in arguments.items())
    return json.dumps(arguments)


def legacy_call(style: str, name: str, data: bytes, params: dict[str, Any],
                context: ModuleRunContext, configured: str | None = None) -> dict[str, Any] | str:
    """The helper module's parameters for one run; an error message for a text module without ``#!`` line.
    ``configured`` replaces the line's program (the task's ``ansible_<name>_interpreter``), its arguments kept."""
    interpreter = interpreter_line(data) if style != BINARY else None
    if style != BINARY and interpreter is None:
        return f"module ({name}) is missing interpreter line"
    call: dict[str, Any] = {"name": name, "source": base64.b64encode(data).decode("ascii"), "style": style,
                            "interpreter": interpreter, "arguments": legacy_arguments_text(style, params, context)}
    if interpreter is not None and configured:  # run as configured, even a Python other than the agent's
        call.update(interpreter=[*shlex.split(configured), *interpreter[1:]], configured=True)
    return call
