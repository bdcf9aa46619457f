"""Dynamic inventory scripts: an executable that prints JSON for ``--list`` (and ``--host NAME``), run as Ansible's
script plugin runs it.

``--list`` runs once. Its output maps group names to ``{"hosts": [...], "vars": {...}, "children": [...]}`` (a
bare list is the group's hosts; a mapping with none of those keys is a host of that name with those variables),
and ``_meta.hostvars`` maps hosts to their variables. Without ``_meta.hostvars``, the script runs once more per
host with ``--host NAME``. A script that fails (non-zero exit, its standard error shown), hangs past the timeout,
or prints something other than that JSON is a ParseError naming it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition
from runner.inventory.connection_vars import check_connection_variables
from runner.inventory.inventory import Inventory
from runner.util.strict_utf8 import InvalidUtf8, check_decoded

# Seconds one run of a script may take: a script that waits for a cloud API longer than this is stuck.
SCRIPT_TIMEOUT = 120
_GROUP_KEYS = ("hosts", "vars", "children")


def is_inventory_script(path: Path) -> bool:
    """An executable file that is not text for an inventory format: a ``#!`` script or a binary."""
    if not os.access(path, os.X_OK):
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(4)
    except OSError:
        return False
    return head.startswith((b"#!", b"\x7fELF"))


def add_script_source(inventory: Inventory, path: Path) -> None:
    data = _json_of(path, ["--list"], "--list")
    if not isinstance(data, dict):
        raise _bad(path, "--list", f"expected a JSON object of groups, got {_kind(data)}")
    meta = data.get("_meta")
    hostvars = meta.get("hostvars") if isinstance(meta, dict) else None
    if meta is not None and not isinstance(hostvars, dict):
        raise _bad(path, "--list", f"'_meta.hostvars' must be an object of hosts, got {_kind(hostvars)}")
    hosts: list[str] = []
    for name, body in data.items():
        if name != "_meta":
            hosts += _add_group(inventory, path, str(name), body)
    for host in dict.fromkeys(hosts):
        variables = hostvars.get(host, {}) if hostvars is not None else _json_of(path, ["--host", host], "--host")
        if variables is None:
            variables = {}
        if not isinstance(variables, dict):
            raise _bad(path, "--host" if hostvars is None else "--list",
                       f"the variables of host '{host}' must be a JSON object, got {_kind(variables)}")
        check_connection_variables(variables, lambda _: SourcePosition(str(path)))
        inventory.add_host(host, [], variables)


def _add_group(inventory: Inventory, path: Path, name: str, body: Any) -> list[str]:
    """Add one group of the ``--list`` output; the hosts it names."""
    if isinstance(body, list):
        body = {"hosts": body}
    elif isinstance(body, dict) and not any(key in body for key in _GROUP_KEYS):
        body = {"hosts": [name], "vars": body}  # Ansible's reading of a malformed group: a host of that name
    if not isinstance(body, dict):
        raise _bad(path, "--list", f"group '{name}' must be an object or a list of hosts, got {_kind(body)}")
    hosts, variables, children = body.get("hosts", []), body.get("vars", {}), body.get("children", [])
    for key, value, kind in (("hosts", hosts, list), ("vars", variables, dict), ("children", children, list)):
        if not isinstance(value, kind):
            raise _bad(path, "--list", f"'{name}.{key}' must be a JSON {'array' if kind is list else 'object'}, "
                                       f"got {_kind(value)}")
    group = inventory.add_group(name)
    names = [str(host) for host in hosts]
    for host in names:
        inventory.add_host(host, [name])
    for variable, value in variables.items():
        group.set_variable(variable, value, SourcePosition(str(path)))
    for child in children:
        if str(child) not in inventory.hosts:
            inventory.add_group(str(child))
        inventory.add_child(name, str(child), position=SourcePosition(str(path)))
    return names


def _json_of(path: Path, arguments: list[str], what: str) -> Any:
    try:
        done = subprocess.run([str(path), *arguments], capture_output=True, stdin=subprocess.DEVNULL,
                              timeout=SCRIPT_TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        raise _bad(path, what, f"it did not finish within {SCRIPT_TIMEOUT} s") from None
    except OSError as exc:
        raise _bad(path, what, f"it cannot be run: {exc.strerror or exc}") from None
    stderr = done.stderr.decode("utf-8", "replace").strip()
    shown = f"; its standard error:\n{stderr}" if stderr else ""
    if done.returncode != 0:
        raise _bad(path, what, f"it exited {done.returncode}{shown}")
    try:
        text = done.stdout.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _bad(path, what, f"its output is not UTF-8 text (byte {exc.start}){shown}") from None
    if not text.strip() and what == "--host":
        return {}
    try:
        return check_decoded(json.loads(text))
    except json.JSONDecodeError as exc:
        raise _bad(path, what, f"its output is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno} of "
                               f"the output{shown}") from None
    except InvalidUtf8 as exc:  # a "\udc80" escape in the JSON
        raise _bad(path, what, f"{exc} {exc.help_text}") from None


def _bad(path: Path, what: str, problem: str) -> ParseError:
    return ParseError(f"inventory script, run with {what}: {problem}", SourcePosition(str(path)))


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", type(None): "null", bool: "a boolean"}.get(
        type(value), type(value).__name__)
