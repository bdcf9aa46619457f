"""Time filters: ``to_datetime`` parses, ``strftime`` formats (a format string, optionally seconds since epoch)."""

from __future__ import annotations

import datetime
import time
from typing import Any

from runner.templating.errors import TemplateError


def to_datetime(value: Any, format: str = "%Y-%m-%d %H:%M:%S") -> datetime.datetime:
    try:
        return datetime.datetime.strptime(str(value), format)
    except ValueError as exc:
        raise TemplateError(f"to_datetime: {exc}") from None


def strftime(string_format: str, second: Any = None, utc: bool = False) -> str:
    """``'%Y-%m-%d' | strftime`` is today; ``'%Y' | strftime(0, utc=True)`` is "1970"."""
    convert = time.gmtime if utc else time.localtime
    try:
        moment = convert(float(second)) if second is not None else convert()
    except (TypeError, ValueError):
        raise TemplateError(f"strftime: invalid value for seconds: {second!r}") from None
    return time.strftime(string_format, moment)


FILTERS = {"to_datetime": to_datetime, "strftime": strftime}
