"""Where data read from a file was written: containers that carry their positions, and ``position_of``.

The YAML loader (``runner.loader.yaml``) builds these containers; every later stage (models, inventory, infra,
taskservs, ...) asks ``position_of`` where a value came from to report it at ``file:line:col``. They live here, below
the loader and the models, so that reading a position needs neither.
"""

from __future__ import annotations

from typing import Any

from runner.errors import SourcePosition


class Positions:
    """Where a container and its parts were written; 0-based, as the parser counts (``position_of`` adds one)."""

    __slots__ = ("col", "items", "keys", "line", "values")

    def __init__(self, line: int, col: int):
        self.line = line
        self.col = col
        self.keys: dict[Any, tuple[int, int]] = {}
        self.values: dict[Any, tuple[int, int]] = {}
        self.items: list[tuple[int, int]] = []

    def key(self, key: Any) -> tuple[int, int]:
        return self.keys[key]

    def value(self, key: Any) -> tuple[int, int]:
        return self.values[key]

    def item(self, index: int) -> tuple[int, int]:
        return self.items[index]


class PositionedDict(dict[Any, Any]):
    """A mapping read from YAML: ``lc`` holds positions, ``source_path`` the file."""

    lc: Positions
    source_path: str


class PositionedList(list[Any]):
    lc: Positions
    source_path: str


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
