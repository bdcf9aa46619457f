"""Type and choice filters: ``bool``, ``mandatory``, ``ternary``, ``random``, ``shuffle``, sizes, ``type_debug``."""

from __future__ import annotations

import random as random_module
import re
from collections.abc import Iterable
from typing import Any

from jinja2 import Undefined

from runner.templating.errors import TemplateError

_TRUE_STRINGS = frozenset(["yes", "on", "1", "true"])


def to_bool(value: Any) -> bool | None:
    """Ansible's ``bool``: yes/on/1/true (any case) and 1 are True, None stays None, anything else is False."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        value = value.strip().lower()
    return value in _TRUE_STRINGS or value == 1


def mandatory(value: Any, msg: str | None = None) -> Any:
    if isinstance(value, Undefined):
        name = getattr(value, "_undefined_name", None)
        raise TemplateError(msg or (f"Mandatory variable '{name}' not defined." if name
                                    else "Mandatory variable not defined."), undefined_name=name)
    return value


def ternary(value: Any, true_value: Any, false_value: Any, none_value: Any = None) -> Any:
    if value is None and none_value is not None:
        return none_value
    return true_value if value else false_value


_NATIVE_TYPES = (bool, int, float, str, bytes, dict, list, tuple, set, frozenset)


def type_debug(value: Any) -> str:
    """The value's Python type, as ansible-core 2.19 names it: the native type of a marked or positioned value
    (a host's ``UnsafeText``, a ``PositionedDict`` read from YAML) rather than the subclass carrying the mark."""
    native = next((base for base in type(value).__mro__ if base in _NATIVE_TYPES), None)
    return native.__name__ if native is not None else type(value).__name__


def random_choice(end: Any, start: int | None = None, step: int | None = None, seed: Any = None) -> Any:
    """Ansible's ``random``: a number in ``range(start, end, step)``, or an item of a sequence."""
    generator = random_module.Random(seed) if seed is not None else random_module.SystemRandom()
    if isinstance(end, int) and not isinstance(end, bool):
        return generator.randrange(start or 0, end, step or 1)
    if isinstance(end, Iterable):
        if start or step:
            raise TemplateError("random: start and step apply to a number, not to a list")
        return generator.choice(list(end))
    raise TemplateError(f"random: expected a number or a list, got {type(end).__name__}")


def shuffle(values: Iterable[Any], seed: Any = None) -> list[Any]:
    items = list(values)
    (random_module.Random(seed) if seed is not None else random_module.SystemRandom()).shuffle(items)
    return items


_SIZE_UNITS = [("Y", 1 << 80), ("Z", 1 << 70), ("E", 1 << 60), ("P", 1 << 50), ("T", 1 << 40), ("G", 1 << 30),
               ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
_HUMAN_SIZE = re.compile(r"^\s*(\d*\.?\d*)\s*([A-Za-z]+)?\s*$")


def human_readable(size: Any, isbits: bool = False, unit: str | None = None) -> str:
    """``1048576 | human_readable`` is "1.00 MB"; with ``isbits`` "1.00 Mb"; ``unit`` forces the unit."""
    try:
        number = float(size)
    except (TypeError, ValueError):
        # Ansible's words first: playbooks match on them
        raise TemplateError(f"human_readable() failed on bad input: {size!r} is not a number") from None
    base = "bits" if isbits else "Bytes"
    suffix, limit = "B", 1
    for suffix, limit in _SIZE_UNITS:
        if (unit is None and number >= limit) or (unit is not None and unit.upper()[:1] == suffix):
            break
    label = suffix + base[0] if limit != 1 else base
    return f"{number / limit:.2f} {label}"


def human_to_bytes(size: Any, default_unit: str | None = None, isbits: bool = False) -> int:
    """``'10M' | human_to_bytes`` is 10485760; ``'1 Kb' | human_to_bytes(isbits=True)`` is 1024."""
    match = _HUMAN_SIZE.match(str(size))
    if not match or not match.group(1):
        raise TemplateError(f"human_to_bytes() can't interpret the input: no size in {size!r}")
    number, unit = float(match.group(1)), match.group(2) or default_unit
    if not unit:
        return round(number)
    multiplier = dict(_SIZE_UNITS).get(unit[0].upper())
    expected = "b" if isbits else "B"
    if multiplier is None or (len(unit) > 1 and unit[-1] != expected and unit.lower() not in ("bytes", "bits")):
        raise TemplateError(f"human_to_bytes() can't interpret the input: unknown unit '{unit}' in {size!r}")
    return round(number * multiplier)


FILTERS = {
    "bool": to_bool,
    "mandatory": mandatory,
    "ternary": ternary,
    "type_debug": type_debug,
    "random": random_choice,
    "shuffle": shuffle,
    "human_readable": human_readable,
    "human_to_bytes": human_to_bytes,
}
