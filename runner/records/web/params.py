"""Query parameters of the API and the pages, checked: a bad one is a 400 naming it, never a traceback."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from runner.errors import OptionError
from runner.records.periods import RUN_STATUSES, parse_since
from runner.records.web.router import HttpError

DEFAULT_LIMIT = 50
MAX_LIMIT = 500


def integer(query: Mapping[str, str], name: str, default: int, *, minimum: int, maximum: int) -> int:
    text = query.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise HttpError(400, f"{name}={text!r}: expected a whole number") from None
    if not minimum <= value <= maximum:
        raise HttpError(400, f"{name}={value}: expected {minimum} to {maximum}")
    return value


def paging(query: Mapping[str, str]) -> tuple[int, int]:
    """``limit`` (1 to 500, 50 by default) and ``offset`` (0 by default)."""
    return (integer(query, "limit", DEFAULT_LIMIT, minimum=1, maximum=MAX_LIMIT),
            integer(query, "offset", 0, minimum=0, maximum=2**62))


def choice(query: Mapping[str, str], name: str, allowed: tuple[str, ...]) -> str | None:
    value = query.get(name) or None
    if value is not None and value not in allowed:
        raise HttpError(400, f"{name}={value!r}: expected one of {', '.join(allowed)}")
    return value


def since(query: Mapping[str, str]) -> datetime | None:
    text = query.get("since") or None
    if text is None:
        return None
    try:
        return parse_since(text, "since")
    except OptionError as exc:
        raise HttpError(400, exc.message) from None


def text(query: Mapping[str, str], name: str) -> str | None:
    return query.get(name) or None


def run_filters(query: Mapping[str, str]) -> dict[str, Any]:
    """The run list's filters: ``playbook``, ``host``, ``status``, ``since``."""
    return {"playbook": text(query, "playbook"), "host": text(query, "host"),
            "status": choice(query, "status", RUN_STATUSES), "since": since(query)}
