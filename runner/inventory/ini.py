"""INI inventory files, read as Ansible's ini plugin reads them.

``[group]`` sections list hosts (``web[01:03]:2222 key=value ...``), ``[group:vars]`` sections hold one
``key=value`` a line, ``[group:children]`` sections name child groups. Hosts before any section are ungrouped.
Values are typed as Ansible types them: a Python literal where the text is one (``5``, ``1.5``, ``True``,
``[1, 2]``, ``'quoted'``), otherwise the text itself (``yes``, ``1.2.3.4``, ``0644`` stay strings).
"""

from __future__ import annotations

import ast
import re
import shlex
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition, did_you_mean
from runner.inventory.connection_vars import check_connection_variables
from runner.inventory.hostnames import expand_host_pattern
from runner.inventory.inventory import Inventory

_SECTION = re.compile(r"^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:#.*)?$")
_GROUP_NAME = re.compile(r"^([^:\]\s]+)\s*(?:#.*)?$")
_SECTION_KINDS = ("hosts", "vars", "children")
_LOOKS_LIKE_YAML = re.compile(r"^(---|[\w.-]+:\s*(#.*)?$)")


@dataclass
class _Pending:
    """A group named before it is defined: by a [g:vars] header or as a child in [parent:children]."""

    kind: str
    position: SourcePosition
    parents: list[str] = field(default_factory=list)


def parse_value(text: str) -> Any:
    """An INI value as Ansible types it: a Python literal when the text is one, otherwise the text."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # "0644" and friends warn before failing
            return _variable_types(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


def _variable_types(value: Any) -> Any:
    """A literal as the types a variable can have, as Ansible converts it: tuples and sets become lists, bytes
    text, and what has no variable type (``...``, ``1j``) the text it was written as."""
    if isinstance(value, (list, tuple, set)):
        return [_variable_types(item) for item in value]
    if isinstance(value, dict):
        return {key: _variable_types(item) for key, item in value.items()}
    if value is ...:
        return "..."
    if isinstance(value, complex):
        return str(value)
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="surrogateescape")
    return value


def _column_of(text: str, line: str, position: SourcePosition) -> SourcePosition:
    """The position of ``text`` in ``line`` (which starts at ``position``), or the line's when it is not there."""
    offset = line.find(text)
    if offset < 0 or position.column is None:
        return position
    return SourcePosition(position.path, position.line, position.column + offset)


def parse_ini(inventory: Inventory, path: Path, text: str) -> None:
    """Add the groups and hosts of an INI inventory file to ``inventory``."""
    _IniReader(inventory, path).read(text)


class _IniReader:
    def __init__(self, inventory: Inventory, path: Path) -> None:
        self.inventory = inventory
        self.path = path
        self.group = "ungrouped"
        self.kind = "hosts"
        self.pending: dict[str, _Pending] = {}
        self.looks_like_yaml = False

    def read(self, text: str) -> None:
        try:
            self._read(text)
        except ParseError as exc:
            if self.looks_like_yaml and exc.hint is None:
                exc.hint = "this file looks like YAML: name it .yml or .yaml"
            raise

    def _read(self, text: str) -> None:
        first = True
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line[0] in "#;":
                continue
            if first:
                self.looks_like_yaml = bool(_LOOKS_LIKE_YAML.match(line))
                first = False
            position = SourcePosition(str(self.path), number, len(raw) - len(raw.lstrip()) + 1)
            if line.startswith("["):
                self._section(line, position)
            elif self.kind == "hosts":
                self._hosts(line, position)
            elif self.kind == "vars":
                self._variable(line, position)
            else:
                self._child(line, position)
        for name, pending in self.pending.items():
            if pending.kind == "vars":
                raise ParseError(f"section [{name}:vars] is for a group that is never defined", pending.position)
            raise ParseError(f"section [{pending.parents[0]}:children] names group '{name}', which is never defined",
                              pending.position)

    def _section(self, line: str, position: SourcePosition) -> None:
        match = _SECTION.match(line)
        if not match:
            raise ParseError(f"invalid section header '{line}': expected [group], [group:vars] or [group:children]",
                              position)
        name, kind = match.group(1), match.group(2) or "hosts"
        if kind not in _SECTION_KINDS:
            raise ParseError(f"section [{name}:{kind}] has an unknown type '{kind}': expected vars or children",
                             position, hint=did_you_mean(kind, _SECTION_KINDS))
        if name not in self.inventory.groups:
            if kind == "vars":
                self.pending.setdefault(name, _Pending("vars", position))
            self.inventory.add_group(name)
        pending = self.pending.get(name)
        if pending is not None and kind != "vars":
            del self.pending[name]
            for parent in pending.parents:
                self.inventory.add_child(parent, name, position=pending.position)
        self.group, self.kind = name, kind

    def _hosts(self, line: str, position: SourcePosition) -> None:
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError as exc:
            raise ParseError(f"cannot split host line: {exc}", position) from None
        if not tokens:
            return
        if tokens[0] == "---":
            raise ParseError("'---' is not a host", position)
        names, port = expand_host_pattern(tokens[0], position)
        variables: dict[str, Any] = {} if port is None else {"ansible_port": port}
        for token in tokens[1:]:
            key, equals, value = token.partition("=")
            if not equals or not key:
                raise ParseError(f"expected key=value host variable, got '{token}'", position)
            variables[key] = parse_value(value)
        check_connection_variables(variables, lambda key: _column_of(f"{key}=", line, position))
        for name in names:
            self.inventory.add_host(name, [self.group], variables)

    def _variable(self, line: str, position: SourcePosition) -> None:
        key, equals, value = line.partition("=")
        if not equals or not key.strip():
            raise ParseError(f"expected key=value in [{self.group}:vars], got '{line}'", position)
        self.inventory.groups[self.group].set_variable(key.strip(), parse_value(value.strip()), position)

    def _child(self, line: str, position: SourcePosition) -> None:
        match = _GROUP_NAME.match(line)
        if not match:
            raise ParseError(f"expected a group name in [{self.group}:children], got '{line}'", position)
        child = match.group(1)
        if child in self.inventory.groups:
            self.inventory.add_child(self.group, child, position=position)
        else:
            self.pending.setdefault(child, _Pending("children", position)).parents.append(self.group)

