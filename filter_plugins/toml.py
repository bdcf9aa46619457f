"""``to_toml`` and ``from_toml``: containerd, cri-o, etcd and other taskservs are configured in TOML.

``{{ containerd_config | to_toml }}`` renders a nested mapping as TOML: plain keys first, then one ``[table]``
per nested mapping (dotted, quoted where needed: ``[plugins."io.containerd.grpc.v1.cri".containerd]``), and
``[[array.of.tables]]`` for lists of mappings.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Mapping
from typing import Any

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


class TomlError(ValueError):
    """A value that TOML cannot hold (None, or a type it has no syntax for)."""


def _key(key: Any) -> str:
    text = str(key)
    return text if _BARE_KEY.match(text) else json.dumps(text, ensure_ascii=False)


def _is_table(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, Mapping) for item in value)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(key)} = {_value(item)}" for key, item in value.items()) + "}"
    if value is None:
        raise TomlError("TOML has no null value; leave the key out instead")
    raise TomlError(f"TOML cannot hold a value of type {type(value).__name__}")


def _table(data: Mapping[str, Any], path: list[str], lines: list[str]) -> None:
    scalars = [(key, value) for key, value in data.items() if not _is_table(value) and not _is_table_array(value)]
    for key, value in scalars:
        lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in data.items():
        child = [*path, _key(key)]
        if _is_table(value):
            if lines:
                lines.append("")
            lines.append(f"[{'.'.join(child)}]")
            _table(value, child, lines)
        elif _is_table_array(value):
            for item in value:
                if lines:
                    lines.append("")
                lines.append(f"[[{'.'.join(child)}]]")
                _table(item, child, lines)


def to_toml(data: Any) -> str:
    if not isinstance(data, Mapping):
        raise TomlError(f"to_toml expects a mapping at the top, got {type(data).__name__}")
    lines: list[str] = []
    _table(data, [], lines)
    return "\n".join(lines) + "\n"


def from_toml(text: Any) -> dict[str, Any]:
    import tomllib  # here: every templating environment loads this file; its parser compiles regexes at import

    return tomllib.loads(str(text))


class FilterModule:
    def filters(self) -> dict[str, Any]:
        return {"to_toml": to_toml, "from_toml": from_toml}
