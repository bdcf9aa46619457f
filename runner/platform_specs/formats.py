"""Text formats the seed schemas hold in plain strings: CIDRs, port ranges, cron lines, Go durations, digests.

The original schemas type these as ``str`` and leave them unchecked; a mistake in one would only show when a
host or registry reads it. Each function answers whether the text reads as its format.
"""

from __future__ import annotations

import ipaddress
import re

PORT_RANGE = r"^[0-9]{1,5}(-[0-9]{1,5})?$"
GO_DURATION = r"^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$"
# The OCI image spec's digest grammar: algorithm ":" encoded.
OCI_DIGEST = r"^[a-z0-9]+([+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$"
CRON_LINE = r"^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|\S+( +\S+){4})$"


def _whole(pattern: str) -> re.Pattern[str]:
    """A JSON Schema pattern (``^...$``) compiled for ``fullmatch``, where ``$`` cannot pass a final newline."""
    return re.compile(pattern.removeprefix("^").removesuffix("$"))


_PORT_RANGE, _GO_DURATION, _OCI_DIGEST = _whole(PORT_RANGE), _whole(GO_DURATION), _whole(OCI_DIGEST)


def is_network(text: str) -> bool:
    """A CIDR such as ``192.168.1.0/24`` (host bits may be set, as in ``192.168.1.1/24``)."""
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return True


def is_address_in(address: str, network: str) -> bool:
    try:
        return ipaddress.ip_address(address) in ipaddress.ip_network(network, strict=False)
    except ValueError:
        return False


def is_port_range(text: str) -> bool:
    """``8080`` or ``8000-9000``, within 1-65535 and in order."""
    if not _PORT_RANGE.fullmatch(text):
        return False
    first, _, last = text.partition("-")
    return 1 <= int(first) <= int(last or first) <= 65535


def is_go_duration(text: str) -> bool:
    """A duration as Go's time.ParseDuration reads it without a sign: ``24h``, ``1h30m``, ``500ms``."""
    return _GO_DURATION.fullmatch(text) is not None


def is_oci_digest(text: str) -> bool:
    return _OCI_DIGEST.fullmatch(text) is not None


_CRON_FIELDS = (  # (lowest, highest, names counted from lowest)
    (0, 59, ()),
    (0, 23, ()),
    (1, 31, ()),
    (1, 12, ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")),
    (0, 7, ("sun", "mon", "tue", "wed", "thu", "fri", "sat")),
)
_CRON_MACROS = {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}


def is_cron_line(text: str) -> bool:
    """Five cron fields (minute hour day month weekday) with lists, ranges, steps and names, or a macro."""
    if text.strip() in _CRON_MACROS:
        return True
    fields = text.split()
    if len(fields) != len(_CRON_FIELDS):
        return False
    return all(all(_cron_item(item, *limits) for item in field.split(","))
               for field, limits in zip(fields, _CRON_FIELDS, strict=True))


def _cron_item(item: str, lowest: int, highest: int, names: tuple[str, ...]) -> bool:
    span, _, step = item.partition("/")
    if step and not (step.isdigit() and int(step) > 0):
        return False
    if span == "*":
        return True
    bounds = span.split("-")
    if len(bounds) > 2:
        return False
    values = [value for value in (_cron_value(bound, lowest, names) for bound in bounds) if value is not None]
    in_range = all(lowest <= value <= highest for value in values)
    return len(values) == len(bounds) and in_range and values == sorted(values)


def _cron_value(text: str, lowest: int, names: tuple[str, ...]) -> int | None:
    if text.isdigit():
        return int(text)
    if text.lower() in names:
        return lowest + names.index(text.lower())
    return None
