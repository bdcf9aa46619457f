"""Host names as inventory sources write them: ranges (``web[01:20]``, ``db-[a:c]``) and an optional ``:port``."""

from __future__ import annotations

import ipaddress
import re
import string

from runner.errors import ParseError, SourcePosition

_BRACKETED_IPV6 = re.compile(r"^\[([0-9A-Fa-f:.%]+)\](?::(\d+))?$")
_BRACKETS = re.compile(r"\[[^\]]*\]")


def expand_host_pattern(pattern: str, position: SourcePosition | None = None, *, ranges: bool = True
                        ) -> tuple[list[str], int | None]:
    """The host names a pattern stands for and its port: ``web[1:2]:2222`` is ``(['web1', 'web2'], 2222)``."""
    name, port = split_port(pattern, position)
    if not ranges or "[" not in name:
        return [name], port
    return expand_ranges(name, position), port


def split_port(pattern: str, position: SourcePosition | None = None) -> tuple[str, int | None]:
    """``host:22`` into ``('host', 22)``; colons inside a range and in an IPv6 address are not port separators."""
    bracketed = _BRACKETED_IPV6.match(pattern)
    if bracketed and _is_ipv6(bracketed.group(1)):
        return bracketed.group(1), int(bracketed.group(2)) if bracketed.group(2) else None
    outside_ranges = _BRACKETS.sub(lambda match: "[" + "_" * (len(match.group()) - 2) + "]", pattern)
    colons = outside_ranges.count(":")
    if colons != 1:
        return pattern, None  # no port, or an IPv6 address (which needs brackets to carry a port)
    cut = outside_ranges.index(":")
    name, port = pattern[:cut], pattern[cut + 1:]
    if not name:
        raise ParseError(f"invalid host '{pattern}': the name before ':' is empty", position)
    if not port.isdigit():
        if not port:
            raise ParseError(f"invalid host '{pattern}': a trailing ':' is reserved for a port number", position)
        raise ParseError(f"invalid host '{pattern}': expected a port number after ':', got '{port}'", position)
    return name, int(port)


class UnfinishedHostRange(ParseError):
    """A range without its end (``web[1:]``): an error in an inventory file; a host list keeps the name as it is
    written, as Ansible's advanced_host_list does."""


def expand_ranges(name: str, position: SourcePosition | None = None) -> list[str]:
    """Every name a ranged name stands for, in order; several ranges multiply (``r[1:2]n[a:b]`` gives 4)."""
    start = name.find("[")
    if start < 0:
        return [name]
    end = name.find("]", start)
    if end < 0:
        raise ParseError(f"invalid host range in '{name}': missing ']'", position)
    head, body, tail = name[:start], name[start + 1:end], name[end + 1:]
    names: list[str] = []
    for item in _range_items(body, name, position):
        names.extend(expand_ranges(head + item + tail, position))
    return names


def _range_items(body: str, name: str, position: SourcePosition | None) -> list[str]:
    bounds = body.split(":")
    if len(bounds) not in (2, 3):
        raise ParseError(f"invalid host range '[{body}]' in '{name}': expected [begin:end] or [begin:end:step]",
                         position)
    begin, end = bounds[0] or "0", bounds[1]
    if not end:
        raise UnfinishedHostRange(f"invalid host range '[{body}]' in '{name}': the end is missing (host range must "
                                  "specify end value)", position)
    try:
        step = int(bounds[2]) if len(bounds) == 3 else 1
    except ValueError:
        step = 0
    if step < 1:
        raise ParseError(f"invalid host range '[{body}]' in '{name}': the step must be a positive integer", position)
    if len(begin) == 1 and len(end) == 1 and begin in string.ascii_letters and end in string.ascii_letters:
        first, last = string.ascii_letters.index(begin), string.ascii_letters.index(end)
        if first > last:
            raise ParseError(f"invalid host range '[{body}]' in '{name}': begin comes after end", position)
        return list(string.ascii_letters[first:last + 1:step])
    if not (begin.isdigit() and end.isdigit()):
        raise ParseError(f"invalid host range '[{body}]' in '{name}': bounds must be both numbers or both letters",
                         position)
    width = len(begin) if begin.startswith("0") and len(begin) > 1 else 0
    if width and len(end) != width:
        raise ParseError(f"invalid host range '[{body}]' in '{name}': a zero-padded begin needs an end of the same "
                         f"width", position)
    if int(begin) > int(end):
        raise ParseError(f"invalid host range '[{body}]' in '{name}': begin is greater than end", position)
    return [str(number).zfill(width) for number in range(int(begin), int(end) + 1, step)]


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True
