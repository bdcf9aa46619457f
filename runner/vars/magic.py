"""Ansible's magic variables and fact aliases, computed when read instead of copied into every host's vars."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from runner.templating import OMIT, VariableScope
from runner.vars.layers import VariableLayers, VariableView

_EMPTY: Mapping[str, Any] = {}


class HostVars(Mapping[str, VariableScope]):
    """``hostvars``: every host's variables, looked up only when a template reads them.

    ``variables_for(host)`` returns that host's ``VariableLayers`` (or any mapping); what it includes (inventory,
    facts, registered results, play vars) is the executor's choice. Values are rendered in the other host's
    context: ``hostvars['db1'].url`` uses db1's variables.
    """

    def __init__(self, variables_for: Callable[[str], VariableLayers | Mapping[str, Any]],
                 hosts: Collection[str] | Callable[[], Collection[str]], *, implicit: Collection[str] = ()):
        self._variables_for = variables_for
        self._hosts = hosts
        # names that can be looked up without being listed: the implicit localhost, as in Ansible, where
        # hostvars['localhost'] works in a play on localhost and iterating hostvars gives the inventory's hosts
        self._implicit = implicit

    def _names(self) -> Collection[str]:
        return self._hosts() if callable(self._hosts) else self._hosts

    def __getitem__(self, host: str) -> VariableScope:
        if host not in self:
            raise KeyError(host)
        variables = self._variables_for(host)
        if isinstance(variables, VariableLayers):
            return variables.as_mapping()
        return variables if isinstance(variables, VariableScope) else VariableView((variables,))

    def __contains__(self, host: object) -> bool:
        return host in self._names() or host in self._implicit

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


FACT_PREFIX = "ansible_"
# Kept with its prefix under ansible_facts, as Ansible keeps it (local facts from facts.d).
PREFIXED_FACTS = frozenset({"ansible_local"})


def namespaced_facts(reported: Mapping[str, Any]) -> dict[str, Any]:
    """Facts as a module reports them (``ansible_distribution``, or already ``distribution``) under the names
    kept for the host: without the ``ansible_`` prefix, as Ansible's ``ansible_facts`` holds them."""
    return {key.removeprefix(FACT_PREFIX) if key not in PREFIXED_FACTS else key: value
            for key, value in reported.items()}


class FactsView(Mapping[str, Any]):
    """The facts level: ``ansible_facts`` and, for each fact ``x``, the alias ``ansible_x``.

    ``facts`` is the host's fact mapping as gathered (keys without the ``ansible_`` prefix, as under
    ``ansible_facts``); it is referenced, so facts gathered later are seen at once. ``named`` lists the facts
    other modules than setup reported (getent's ``getent_passwd``, service_facts' ``services``): as in Ansible,
    they are variables under their own names too.
    """

    def __init__(self, facts: Mapping[str, Any], named: Collection[str] = ()):
        self._facts = facts
        self._named = named

    def __getitem__(self, key: str) -> Any:
        if key == "ansible_facts":
            return self._facts
        if key in self._named and key in self._facts:
            return self._facts[key]
        if key.startswith("ansible_"):
            short = key[len("ansible_"):]
            if short in self._facts:
                return self._facts[short]
            if key in self._facts:
                return self._facts[key]
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        if key == "ansible_facts" or (key in self._named and key in self._facts):
            return True
        return isinstance(key, str) and key.startswith("ansible_") and (
            key[len("ansible_"):] in self._facts or key in self._facts)

    def __iter__(self) -> Iterator[str]:
        yield "ansible_facts"
        for key in self._facts:
            yield key if key.startswith("ansible_") else f"ansible_{key}"
        yield from (key for key in self._named if key in self._facts and not key.startswith("ansible_"))

    def __len__(self) -> int:
        return sum(1 for _ in self)


@dataclass(frozen=True)
class MagicVariables(Mapping[str, Any]):
    """The variables Ansible defines for a host in a play; nothing here can be overridden by a user's vars.

    Build one per host per play; ``for_role`` and ``for_batch`` give cheap variants. ``extra`` holds run-wide
    ones such as ``ansible_version``, ``ansible_run_tags`` or ``ansible_play_name``.
    """

    inventory_hostname: str
    groups: Mapping[str, Sequence[str]] = field(default_factory=dict)
    group_names: Sequence[str] = ()
    hostvars: Mapping[str, Any] = field(default_factory=dict)
    play_hosts: Sequence[str] = ()
    play_batch: Sequence[str] | None = None
    play_hosts_all: Sequence[str] | None = None
    check_mode: bool = False
    diff_mode: bool = False
    playbook_dir: str | None = None
    inventory_dir: str | None = None
    inventory_file: str | None = None
    role_name: str | None = None
    role_path: str | None = None
    role_collection: str | None = None  # NS.COLL of a collection's role
    omit: str = OMIT
    extra: Mapping[str, Any] = field(default_factory=dict)

    def for_role(self, role_name: str | None, role_path: str | None,
                 role_collection: str | None = None) -> MagicVariables:
        return replace(self, role_name=role_name, role_path=role_path, role_collection=role_collection)

    def for_batch(self, play_batch: Sequence[str], play_hosts: Sequence[str] | None = None) -> MagicVariables:
        return replace(self, play_batch=play_batch, play_hosts=play_hosts if play_hosts is not None
                       else self.play_hosts)

    def __getitem__(self, key: str) -> Any:
        getter = _GETTERS.get(key)
        if getter is None:
            return self.extra[key]
        value = getter(self)
        if value is None and key in _ABSENT_WHEN_NONE:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str) and key in _GETTERS:
            return key not in _ABSENT_WHEN_NONE or _GETTERS[key](self) is not None
        return key in self.extra

    def __iter__(self) -> Iterator[str]:
        yield from (key for key in _GETTERS if key in self)
        yield from self.extra

    def __len__(self) -> int:
        return sum(1 for _ in self)


_GETTERS: dict[str, Callable[[MagicVariables], Any]] = {
    "inventory_hostname": lambda magic: magic.inventory_hostname,
    "inventory_hostname_short": lambda magic: magic.inventory_hostname.split(".")[0],
    "groups": lambda magic: magic.groups,
    "group_names": lambda magic: list(magic.group_names),
    "hostvars": lambda magic: magic.hostvars,
    "play_hosts": lambda magic: list(magic.play_hosts),
    "ansible_play_hosts": lambda magic: list(magic.play_hosts),
    "ansible_play_hosts_all": lambda magic: list(magic.play_hosts if magic.play_hosts_all is None
                                                 else magic.play_hosts_all),
    "ansible_play_batch": lambda magic: list(magic.play_hosts if magic.play_batch is None else magic.play_batch),
    "ansible_check_mode": lambda magic: magic.check_mode,
    "ansible_diff_mode": lambda magic: magic.diff_mode,
    "playbook_dir": lambda magic: magic.playbook_dir,
    "inventory_dir": lambda magic: magic.inventory_dir,
    "inventory_file": lambda magic: magic.inventory_file,
    "role_name": lambda magic: magic.role_name,
    # the role's name with its collection's, as ansible-core gives it (role_name is the name alone)
    "ansible_role_name": lambda magic: (f"{magic.role_collection}.{magic.role_name}"
                                        if magic.role_collection and magic.role_name else magic.role_name),
    "ansible_collection_name": lambda magic: magic.role_collection,
    "role_path": lambda magic: magic.role_path,
    "omit": lambda magic: magic.omit,
}
# Undefined (not None) outside a role, or when the run has no playbook or inventory folder.
_ABSENT_WHEN_NONE = frozenset(["playbook_dir", "inventory_dir", "inventory_file", "role_name", "ansible_role_name",
                               "role_path", "ansible_collection_name"])
