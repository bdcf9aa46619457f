"""What a controller-side action may change in the run besides its own result: the narrow run-state interface.

An action never sees the worker or the controller. It asks this interface to set variables, learn facts, add
a host or a group, or steer the play (``meta``); the playbook worker applies each change to its own state at
once and records it in the task's result, which the controller reads to tell the other workers. An ad-hoc run
has no later tasks, so its run state keeps nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from runner.inventory import Inventory


_ABSENT = object()


@dataclass(frozen=True, slots=True)
class AddedHost:
    """``add_host`` (or a created server): a host joins the run's inventory, in these groups, with these vars."""

    name: str
    groups: tuple[str, ...] = ()
    vars: dict[str, Any] = field(default_factory=dict)

    def changes(self, inventory: Inventory) -> bool:
        """Whether applying it adds the host, a group membership, or a value to the host's own variables (as
        Ansible's add_host reports changed)."""
        host = inventory.get_host(self.name)
        if host is None or any(host.vars.get(key, _ABSENT) != value for key, value in self.vars.items()):
            return True
        membership = inventory.groups_dict()
        return any(self.name not in membership.get(group, ()) for group in self.groups)

    def apply(self, inventory: Inventory) -> None:
        inventory.add_host(self.name, list(self.groups), dict(self.vars))


@dataclass(frozen=True, slots=True)
class JoinedGroup:
    """``group_by``: the group, made a child of its parents, with the host in it."""

    group: str
    host: str
    parents: tuple[str, ...] = ("all",)

    def changes(self, inventory: Inventory) -> bool:
        """Whether applying it puts the host in the group (as Ansible's group_by reports changed)."""
        return self.host not in inventory.groups_dict().get(self.group, ())

    def apply(self, inventory: Inventory) -> None:
        inventory.add_group(self.group)
        for parent in self.parents:
            if parent != "all":
                inventory.add_child(parent, self.group)
        inventory.add_host(self.host, [self.group])


class RunState(Protocol):
    """The run's state as actions see it (implemented by the playbook worker and by ad-hoc runs)."""

    def set_vars(self, host: str, values: Mapping[str, Any]) -> None:
        """set_fact and register values of ``host``, for its later tasks and everyone's ``hostvars``."""
        ...

    def include_vars(self, host: str, values: Mapping[str, Any]) -> None:
        """include_vars values of ``host`` (a level below set_fact's)."""
        ...

    def cache_vars(self, host: str, values: Mapping[str, Any]) -> None:
        """set_fact ``cacheable`` values of ``host`` (already set with ``set_vars``), for the fact cache."""
        ...

    def set_facts(self, host: str, facts: Mapping[str, Any], named: bool = False) -> None:
        """Facts a module reported about ``host``; ``named``: variables by their own names too (any module's but
        setup's, as Ansible injects them)."""
        ...

    def add_host(self, entry: AddedHost) -> bool:
        """The host joins the inventory; True when that added the host or a group membership."""
        ...

    def join_group(self, entry: JoinedGroup) -> bool:
        """The host joins the group; True when it was not in it."""
        ...

    def request_meta(self, action: str) -> None:
        """``meta``: ask the controller to steer the play (end_host, end_play, clear_facts, flush_handlers ...)."""
        ...


class DetachedRunState:
    """The run state of an ad-hoc command: one task and nothing after it, so what it would change is dropped
    (its result still shows it, as Ansible's does)."""

    def set_vars(self, host: str, values: Mapping[str, Any]) -> None:
        return None

    def include_vars(self, host: str, values: Mapping[str, Any]) -> None:
        return None

    def cache_vars(self, host: str, values: Mapping[str, Any]) -> None:
        return None

    def set_facts(self, host: str, facts: Mapping[str, Any], named: bool = False) -> None:
        return None

    def add_host(self, entry: AddedHost) -> bool:
        return True  # as Ansible's ad-hoc add_host reports: the run had no such host

    def join_group(self, entry: JoinedGroup) -> bool:
        return True

    def request_meta(self, action: str) -> None:
        return None
