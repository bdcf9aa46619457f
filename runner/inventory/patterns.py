"""Host patterns, as Ansible reads them.

A pattern is a list of terms separated by ``,`` (or ``:``, kept for compatibility): ``web``, ``web*``,
``~web\\d+`` (a regular expression), ``&prod`` (intersection), ``!db`` (exclusion), each optionally subscripted
(``web[0]``, ``web[-1]``, ``web[1:3]``). Plain terms are applied first, then ``&`` terms, then ``!`` terms.
A term that names a group selects its hosts and those of its child groups; otherwise it selects matching hosts.
"""

from __future__ import annotations

import fnmatch
import ipaddress
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Protocol

from runner.errors import OptionError, UserError
from runner.inventory.model import Group, Host

_SUBSCRIPTED = re.compile(r"^(.+)\[(?:(-?\d+)|(\d+):(\d*))\]$")
_COLON_TERM = re.compile(r"(?:[^\s:\[\]]|\[[^\]]*\])+")
_GLOB_CHARACTERS = (".", "?", "*", "[")


def split_pattern(pattern: str | Sequence[str]) -> list[str]:
    """``'web:&prod, db'`` into ``['web', '&prod', 'db']``; a list is split item by item."""
    if not isinstance(pattern, str):
        return [term for item in pattern for term in split_pattern(item)]
    if "," in pattern:
        terms = pattern.split(",")
    elif _is_single_term(pattern):
        terms = [pattern]
    else:
        terms = _COLON_TERM.findall(pattern)
    return [term.strip() for term in terms if term.strip()]


def limit_terms(limit: str) -> list[str]:
    """A ``--limit`` value as pattern terms; ``@file`` stands for the file's lines (one pattern a line)."""
    terms: list[str] = []
    for term in split_pattern(limit):
        if not term.startswith("@"):
            terms.append(term)
            continue
        path = Path(term[1:]).expanduser()
        if not path.exists():
            raise OptionError(f"limit file not found: {path}")
        if not path.is_file():
            raise OptionError(f"a limit starting with '@' must be a file, not a directory: {path}")
        terms.extend(line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return terms


class HostsAndGroups(Protocol):
    """What matching a pattern reads of an inventory (``runner.inventory.inventory.Inventory`` has it), so that the
    inventory can use the patterns without the patterns depending on it."""

    hosts: dict[str, Host]
    groups: dict[str, Group]

    def hosts_in(self, group: Group) -> list[Host]: ...

    def localhost(self, name: str) -> Host | None: ...

    def in_order(self, hosts: Iterable[Host]) -> list[Host]: ...


def select(inventory: HostsAndGroups, terms: list[str]) -> list[Host]:
    """The hosts ``terms`` select, in inventory order, each once."""
    plain = [term for term in terms if term[0] not in "&!"]
    intersect = [term[1:] for term in terms if term[0] == "&"]
    exclude = [term[1:] for term in terms if term[0] == "!"]
    selected: list[Host] = []
    for term in plain or ["all"]:
        seen = set(selected)
        selected.extend(host for host in _match_term(inventory, term) if host not in seen)
    for term in intersect:
        keep = set(_match_term(inventory, term))
        selected = [host for host in selected if host in keep]
    for term in exclude:
        drop = set(_match_term(inventory, term))
        selected = [host for host in selected if host not in drop]
    return selected


def unmatched_terms(inventory: HostsAndGroups, terms: list[str]) -> list[str]:
    """The terms that name no group and match no host, as Ansible checks each one for
    ``host_pattern_mismatch`` (an empty group is a match; ``all`` always is)."""
    unmatched: list[str] = []
    for term in terms:
        bare = term[1:] if term[0] in "&!" else term
        expression, _ = _split_subscript(bare)
        if expression == "all" or bare in inventory.hosts:
            continue
        matches = _matcher(expression)
        if any(matches(name) for name in inventory.groups):
            continue
        if _enumerate(inventory, expression):
            continue
        unmatched.append(bare)
    return unmatched


def _match_term(inventory: HostsAndGroups, term: str) -> list[Host]:
    host = inventory.hosts.get(term)
    if host is not None:
        return [host]
    expression, subscript = _split_subscript(term)
    hosts = _enumerate(inventory, expression)
    if subscript is None or not hosts:
        return hosts
    start, end = subscript
    if end is None:
        if not -len(hosts) <= start < len(hosts):
            raise UserError(f"no hosts matched the subscripted pattern '{term}': "
                            f"'{expression}' has {len(hosts)} hosts")
        return [hosts[start]]
    return hosts[start:(end if end >= 0 else len(hosts) - 1) + 1]


def _enumerate(inventory: HostsAndGroups, expression: str) -> list[Host]:
    matches = _matcher(expression)
    groups = [group for name, group in inventory.groups.items() if matches(name)]
    found: list[Host] = []
    for group in groups:
        found.extend(inventory.hosts_in(group))
    if not groups or expression[0] == "~" or any(char in expression for char in _GLOB_CHARACTERS):
        found.extend(host for name, host in inventory.hosts.items() if matches(name))
    if not found:
        localhost = inventory.localhost(expression)
        if localhost is not None:
            found.append(localhost)
    return inventory.in_order(found)


def _matcher(expression: str) -> Callable[[str], bool]:
    source = expression[1:] if expression[0] == "~" else fnmatch.translate(expression)
    try:
        compiled = re.compile(source)
    except re.error as exc:
        raise UserError(f"invalid host pattern '{expression}': {exc}") from None
    return lambda name: compiled.match(name) is not None


def _split_subscript(term: str) -> tuple[str, tuple[int, int | None] | None]:
    if term[0] == "~":
        return term, None  # brackets belong to the regular expression
    match = _SUBSCRIPTED.match(term)
    if not match:
        return term, None
    expression, index, start, end = match.groups()
    if index is not None:
        return expression, (int(index), None)
    return expression, (int(start), int(end) if end else -1)


def _is_single_term(pattern: str) -> bool:
    """True when the colons in a pattern are not separators: an IPv6 address or a range such as ``web[1:3]``."""
    try:
        ipaddress.IPv6Address(pattern.strip("[]"))
        return True
    except ValueError:
        pass
    outside = re.sub(r"\[[^\]]*\]", "", pattern)
    return ":" not in outside
