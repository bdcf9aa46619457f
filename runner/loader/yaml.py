"""YAML with source positions, read the way Ansible's roles expect.

ruamel.yaml's round-trip loader keeps line and column for every mapping key and sequence item, so any later
stage can point at ``file:line:col``. The schema is YAML 1.2 (``yes``/``no``/``NO`` stay strings; models turn
``yes``/``no`` into booleans only where a boolean is expected), with one YAML 1.1 rule kept because real roles
depend on it: an integer with a leading zero (``mode: 0644``, ``02770``) is octal, and ``08`` stays a string.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import ScalarNode

from runner.errors import ParseError, SourcePosition

_LEGACY_OCTAL = re.compile(r"^[-+]?0[0-7_]+$")
_NOT_A_NUMBER = re.compile(r"^[-+]?0[0-9_]*[89][0-9_]*$")


class _AnsibleConstructor(RoundTripConstructor):
    def construct_yaml_int(self, node: ScalarNode) -> Any:  # type: ignore[override]
        text = str(node.value)
        if _LEGACY_OCTAL.match(text):
            sign = -1 if text.startswith("-") else 1
            return sign * int(text.lstrip("+-").replace("_", ""), 8)
        if _NOT_A_NUMBER.match(text):
            return text
        return super().construct_yaml_int(node)


_AnsibleConstructor.add_constructor("tag:yaml.org,2002:int", _AnsibleConstructor.construct_yaml_int)


def _parser() -> YAML:
    yaml = YAML(typ="rt")
    yaml.Constructor = _AnsibleConstructor
    yaml.allow_duplicate_keys = False
    return yaml


def _tag_paths(data: Any, path: str) -> None:
    """Remember the file on every container, so ``position_of`` can name it later."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            try:
                item.source_path = path  # type: ignore[attr-defined]
            except AttributeError:
                pass
            stack.extend(item.values())
        elif isinstance(item, list):
            try:
                item.source_path = path  # type: ignore[attr-defined]
            except AttributeError:
                pass
            stack.extend(item)


def load_yaml_text(text: str, path: str = "<string>") -> Any:
    """Parse YAML text; a syntax error becomes a ``ParseError`` at the line and column the parser stopped."""
    try:
        data = _parser().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        column = mark.column + 1 if mark else None
        problem = exc.problem or exc.context or "invalid YAML"
        if "found character '\\t'" in problem:
            problem += " (tabs are not allowed for indentation)"
        raise ParseError(f"YAML syntax error: {problem}", SourcePosition(path, line, column)) from None
    except YAMLError as exc:
        raise ParseError(f"YAML syntax error: {exc}", SourcePosition(path)) from None
    _tag_paths(data, path)
    return data


def load_yaml_file(path: str | Path) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ParseError(f"file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ParseError(f"cannot read {path}: {exc}") from None
    return load_yaml_text(text, str(path))


def position_of(container: Any, key: Any = None, *, value: bool = False) -> SourcePosition | None:
    """Where ``container[key]`` (or the container itself) was written; None for data not read from a file.

    For a mapping, the position is the key's (or its value's with ``value=True``); for a sequence, the item's.
    """
    path = getattr(container, "source_path", None)
    lc = getattr(container, "lc", None)
    if path is None:
        return None
    if lc is None:
        return SourcePosition(path)
    try:
        if key is None:
            line, column = lc.line, lc.col
        elif isinstance(container, dict):
            line, column = lc.value(key) if value else lc.key(key)
        else:
            line, column = lc.item(key)
    except (KeyError, IndexError, TypeError, AttributeError):
        return SourcePosition(path, lc.line + 1, lc.col + 1)
    return SourcePosition(path, line + 1, column + 1)
