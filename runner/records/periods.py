"""Times and statuses as reading the records takes and shows them, shared by ``provisioning-runs`` and its web
pages: the statuses a run ends with, times given as a duration back from now or a date, durations and times
shown to people. Plain Python: no SQLAlchemy."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from runner.errors import OptionError

RUN_STATUSES = ("running", "ok", "failed", "unreachable", "error", "interrupted")
RESULT_STATUSES = ("ok", "changed", "failed", "skipped", "unreachable")

_DURATION = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_duration(text: str, option: str) -> timedelta:
    """``30m``, ``12h``, ``7d``, ``2w`` → a timedelta."""
    match = _DURATION.match(text)
    if not match:
        raise OptionError(f"{option} {text!r}: expected a number and a unit (s, m, h, d, w), for example 7d")
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def parse_since(text: str, option: str = "--since") -> datetime:
    """A duration back from now (``2h``, ``7d``) or a date or time (``2026-11-01``, ``2026-11-01T08:00``, UTC
    unless it says otherwise)."""
    if _DURATION.match(text):
        return datetime.now(UTC) - parse_duration(text, option)
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise OptionError(f"{option} {text!r}: expected a duration (2h, 7d) or a date (2026-11-01, "
                          "2026-11-01T08:00)") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def shown_time(iso: str | None) -> str:
    """``2026-11-25T09:38:29.246324Z`` → ``2026-11-25 09:38:29``."""
    return iso.replace("T", " ")[:19] if iso else "-"


def shown_seconds(value: float | None) -> str:
    """A duration as people read it: ``0.42s``, ``3m07.5s``; ``-`` when there is none."""
    if value is None:
        return "-"
    return f"{value:.2f}s" if value < 60 else f"{int(value // 60)}m{value % 60:04.1f}s"
