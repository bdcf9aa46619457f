"""How values are stored, shared by both ways of writing (SQLAlchemy and the plain SQLite writer)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

# Columns of JSON type (runner.records.schema); a test keeps this list and the schema in step.
JSON_COLUMNS = frozenset({"result", "diff", "facts", "value", "names"})


def to_json(value: Any) -> str:
    """Results may hold what JSON has no type for (bytes, sets, dates): stored as their text, as reports do. Text
    that is not valid Unicode (a lone surrogate, from bytes that were not UTF-8) is stored escaped (``\\udc80``),
    which reads back as the same string, instead of failing the database's UTF-8 encoding."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(value, ensure_ascii=True, default=str)
    return text


def sqlite_time(moment: datetime) -> str:
    """A UTC time as SQLAlchemy's SQLite DateTime stores it, so both writers' rows read back alike."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
