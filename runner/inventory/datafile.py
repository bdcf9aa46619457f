"""Reading one YAML or JSON data file (inventory or vars) with the positions of its keys kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition
from runner.loader.yaml import finish_document, load_yaml_text, read_text_and_encryption
from runner.positions import position_of


def read_text(path: Path) -> str:
    """A data file's text, decrypted when it is vault- or age-encrypted."""
    return _read(path)[0]


def _read(path: Path) -> tuple[str, bool]:
    try:
        return read_text_and_encryption(path)
    except UnicodeDecodeError as exc:
        raise ParseError(f"cannot read {path}: not UTF-8 text ({exc.reason} at byte {exc.start})",
                         SourcePosition(str(path))) from None
    except OSError as exc:
        raise ParseError(f"cannot read {path}: {exc.strerror}", SourcePosition(str(path))) from None


def load_data_file(path: Path) -> Any:
    """YAML, or JSON for ``.json`` files: read as YAML first to keep positions, as JSON when YAML refuses
    (tab indentation, duplicate keys), and a JSON file that is neither is reported at JSON's line and column."""
    text, encrypted = _read(path)
    if path.suffix != ".json":
        return finish_document(load_yaml_text(text, str(path)), str(path), encrypted=encrypted)
    try:
        return finish_document(load_yaml_text(text, str(path)), str(path), encrypted=encrypted)
    except ParseError:
        pass
    try:
        return finish_document(json.loads(text), str(path), encrypted=encrypted)
    except json.JSONDecodeError as exc:
        raise ParseError(f"JSON syntax error: {exc.msg}", SourcePosition(str(path), exc.lineno, exc.colno)) from None


def where(container: Any, key: Any, path: Path) -> SourcePosition:
    """The position of ``container[key]``, falling back to the file when the data carries no positions."""
    return position_of(container, key) or SourcePosition(str(path))
