"""Reading one YAML or JSON data file (inventory or vars) with the positions of its keys kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition
from runner.loader.yaml import load_yaml_text, position_of


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ParseError(f"cannot read {path}: not UTF-8 text ({exc.reason} at byte {exc.start})",
                         SourcePosition(str(path))) from None
    except OSError as exc:
        raise ParseError(f"cannot read {path}: {exc.strerror}", SourcePosition(str(path))) from None


def load_data_file(path: Path) -> Any:
    """YAML, or JSON for ``.json`` files: read as YAML first to keep positions, as JSON when YAML refuses
    (tab indentation, duplicate keys), and a JSON file that is neither is reported at JSON's line and column."""
    text = read_text(path)
    if path.suffix != ".json":
        return load_yaml_text(text, str(path))
    try:
        return load_yaml_text(text, str(path))
    except ParseError:
        pass
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"JSON syntax error: {exc.msg}", SourcePosition(str(path), exc.lineno, exc.colno)) from None


def where(container: Any, key: Any, path: Path) -> SourcePosition:
    """The position of ``container[key]``, falling back to the file when the data carries no positions."""
    return position_of(container, key) or SourcePosition(str(path))
