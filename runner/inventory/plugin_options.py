"""The options of an inventory plugin configuration file (``plugin: constructed``...): checked against the plugin's
option names and types, each error at its ``file:line:col`` with a did-you-mean."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.errors import ParseError, did_you_mean
from runner.inventory.datafile import where

_TYPE_NAMES = {bool: "a boolean", dict: "a mapping", list: "a list", str: "a string"}


def checked_options(data: Mapping[str, Any], path: Path, plugin: str,
                    types: Mapping[str, type]) -> dict[str, Any]:
    """``data``'s options, every one known to ``plugin`` (``types``: name → expected type) and of its type."""
    for name, value in data.items():
        if name == "plugin":
            continue
        expected = types.get(str(name))
        if expected is None:
            raise ParseError(f"unknown option '{name}' for inventory plugin '{plugin}'", where(data, name, path),
                             hint=did_you_mean(str(name), list(types)) or f"its options: {', '.join(sorted(types))}")
        if value is not None and not isinstance(value, expected):
            raise ParseError(f"option '{name}' of inventory plugin '{plugin}' must be {_TYPE_NAMES[expected]}, "
                             f"got {type(value).__name__}", where(data, name, path))
    return {name: value for name, value in data.items() if name != "plugin" and value is not None}
