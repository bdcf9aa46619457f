"""Hosts and groups: the nodes of the inventory graph and the variables written on them in inventory files."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition
from runner.inventory.connection_vars import check_connection_variables
from runner.util.hash_merge import merge_into

# Names that mean "this machine"; one of them named in a pattern gives the implicit localhost.
LOCALHOST_NAMES = ("localhost", "127.0.0.1", "::1")

# Set on a group in an inventory source, it orders groups of the same depth when their variables merge.
PRIORITY_VARIABLE = "ansible_group_priority"


@dataclass(eq=False, repr=False)
class Group:
    """A named set of hosts and child groups; ``vars`` are the ones written in the inventory source itself."""

    name: str
    vars: dict[str, Any] = field(default_factory=dict)
    hosts: list[Host] = field(default_factory=list)
    children: list[Group] = field(default_factory=list)
    parents: list[Group] = field(default_factory=list)
    priority: int = 1
    merge_vars: bool = False  # hash_behaviour = merge: a second source's mapping merges with the first's

    def __repr__(self) -> str:
        return f"Group({self.name!r})"

    @property
    def depth(self) -> int:
        """The longest path from a root group (``all`` is 0): parents merge their variables before children."""
        return 1 + max(parent.depth for parent in self.parents) if self.parents else 0

    def ancestors(self) -> list[Group]:
        """Every group above this one, nearest first, each once."""
        found: list[Group] = []
        pending = list(self.parents)
        while pending:
            group = pending.pop(0)
            if group not in found:
                found.append(group)
                pending.extend(group.parents)
        return found

    def descendants(self) -> list[Group]:
        """This group and every group below it, each once."""
        found: list[Group] = []
        pending = [self]
        while pending:
            group = pending.pop(0)
            if group not in found:
                found.append(group)
                pending.extend(group.children)
        return found

    def set_variable(self, key: str, value: Any, position: SourcePosition | None = None) -> None:
        """Set a variable as an inventory source does: ``ansible_group_priority`` becomes the group's priority."""
        if key != PRIORITY_VARIABLE:
            check_connection_variables({key: value}, lambda _: position)
            merge_into(self.vars, {key: value}, self.merge_vars)
            return
        try:
            self.priority = int(value)
        except (TypeError, ValueError):
            raise ParseError(f"{PRIORITY_VARIABLE} of group '{self.name}' must be an integer, got {value!r}",
                             position) from None


@dataclass(eq=False, repr=False)
class Host:
    """A machine; ``vars`` are the ones written for it in inventory sources (or given to ``add_host``).

    ``groups`` holds the groups the host was put in directly; ``source`` is the inventory file that first named it.
    """

    name: str
    vars: dict[str, Any] = field(default_factory=dict)
    groups: list[Group] = field(default_factory=list)
    source: Path | None = None
    implicit: bool = False

    def __repr__(self) -> str:
        return f"Host({self.name!r})"

    def all_groups(self) -> list[Group]:
        """The direct groups and all their ancestors, each once."""
        found: list[Group] = []
        for group in self.groups:
            for candidate in (group, *group.ancestors()):
                if candidate not in found:
                    found.append(candidate)
        return found

    def group_names(self) -> list[str]:
        """The ``group_names`` variable: every group the host is in, directly or through a child, except ``all``."""
        return sorted(group.name for group in self.all_groups() if group.name != "all")
