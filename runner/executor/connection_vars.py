"""Which connection settings a task uses on a host: the connection variables (``ansible_host``, ``ansible_user``
...) resolved with the whole variable precedence, as for any variable, over the configuration, the command line
and the play's and task's keywords.

Every level that can hold a variable can hold these: extra vars, include params, role params, set_fact,
include_vars, task, block, role and play vars, vars_files, the inventory, role defaults. Facts cannot: as
ansible-core does, what a fact says about the connection never changes it. For a delegated task the variables
are the delegated host's own (its inventory vars, set_fact and include_vars values) under the play's and the
task's, which apply to it as they do to the task's host: ansible-core takes the connection of ``delegate_to``
from the delegated host's variables.

Stacking a task's whole variable view to read a few names would cost every task, so each source's connection
variables are picked out once: plan scopes never change; a host's inventory variables change only with
add_host and group_by; its set_fact and include_vars values keep theirs as they are set (``HostRuntime``). The
picked mappings, almost always empty, are merged in the order of the task's variables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any, Protocol

from modules._utils import ArgumentError
from runner.connection import ConnectionSettings
from runner.connection.settings import SETTING_OF
from runner.executor.variables import HostRuntime, pick_connection_vars, task_scope_ids
from runner.plan import PlanTask, VarScope
from runner.templating import is_template
from runner.vars import Precedence

_NONE: Mapping[str, Any] = {}


_Found = list[tuple[Precedence, Mapping[str, Any]]]


class VariableSources(Protocol):
    """Where a worker keeps the variables (``runner.executor.playbook_worker.PlaybookWorker``, which uses this
    module)."""

    inventory: Any
    scopes: list[VarScope]

    def host_runtime(self, host: str) -> HostRuntime: ...


class ConnectionSources:
    """One worker's connection variables per variable source, picked out once per source."""

    def __init__(self, extra_vars: Mapping[str, Any]):
        self._extra = pick_connection_vars(extra_vars)
        self._scopes: dict[int, tuple[Precedence, Mapping[str, Any]]] = {}
        # Per host: the levels that belong to the host (inventory, include_vars, set_fact, extra vars), merged,
        # with the host's connection_version they were made for.
        self._hosts: dict[str, tuple[int, _Found, Mapping[str, Any]]] = {}

    def forget_inventory(self) -> None:
        """The inventory changed (add_host, group_by): hosts' inventory variables may have too."""
        self._hosts.clear()

    def values(self, worker: VariableSources, host: str, node: PlanTask, payload: Mapping[str, Any]
               ) -> Mapping[str, Any]:
        """The connection variables ``node`` sees on ``host`` (raw: templates are not rendered yet; shared:
        not to be changed)."""
        found, merged = self._host_levels(worker, host)
        task = [entry for entry in (self._scope(worker, scope_id) for scope_id in task_scope_ids(node, payload))
                if entry[1]]
        params = pick_connection_vars(payload.get("vars") or _NONE)
        if params:
            task.append((Precedence.INCLUDE_PARAMS, params))
        # The common case: neither the play nor the task says anything of the connection.
        return _merged(found + task) if task else merged

    def _host_levels(self, worker: VariableSources, host: str) -> tuple[_Found, Mapping[str, Any]]:
        runtime = worker.host_runtime(host)
        known = self._hosts.get(host)
        if known is None or known[0] != runtime.connection_version:
            found = [(level, values) for level, values in (
                (Precedence.INVENTORY, self._inventory_of(worker, host)),
                (Precedence.INCLUDE_VARS, runtime.included_connection_vars),
                (Precedence.SET_FACT, runtime.connection_vars),
                (Precedence.EXTRA_VARS, self._extra)) if values]
            known = self._hosts[host] = (runtime.connection_version, found, _merged(found))
        return known[1], known[2]

    def _scope(self, worker: VariableSources, scope_id: int) -> tuple[Precedence, Mapping[str, Any]]:
        picked = self._scopes.get(scope_id)
        if picked is None:
            scope = worker.scopes[scope_id]
            picked = self._scopes[scope_id] = (Precedence[scope.kind.name], pick_connection_vars(scope.vars))
        return picked

    @staticmethod
    def _inventory_of(worker: VariableSources, host: str) -> Mapping[str, Any]:
        # A delegate_to target outside the inventory has no inventory variables of its own; localhost has those
        # of the implicit localhost (ansible_connection=local), so -e ansible_host does not move it.
        inventory = worker.inventory
        known = inventory.get_host(host) is not None if hasattr(inventory, "get_host") else host in inventory.hosts
        return pick_connection_vars(inventory.host_vars(host)) if known else _NONE


def _merged(found: _Found) -> Mapping[str, Any]:
    """The levels' connection variables merged, lowest level first; within a level in the order the task's
    variables stack them (an inner block's vars after an outer block's), so that what comes later wins, as in
    runner.vars.VariableLayers. A setting is taken whole from the last level that names it, under any of its
    names: -e ansible_host wins over an inventory's provisioning_host (within one level, the settings decide
    between the names)."""
    if len(found) < 2:
        return found[0][1] if found else _NONE
    by_setting: dict[str, dict[str, Any]] = {}
    for _, values in sorted(found, key=itemgetter(0)):
        level: dict[str, dict[str, Any]] = {}
        for name, value in values.items():
            level.setdefault(SETTING_OF[name], {})[name] = value
        by_setting.update(level)
    return {name: value for names in by_setting.values() for name, value in names.items()}


class BadConnectionVariable(Exception):
    """A connection variable with a value that cannot be used (``ansible_port: abc``)."""


class SettingsCache:
    """Connection settings built once per host, base settings and connection variables.

    The key holds everything the settings are made of, so a host whose variables change (``set_fact:
    ansible_host``, a task's ``vars``) gets other settings, hence its own connection, and going back finds the
    earlier ones. Templated values are rendered (by ``render``, with the variables of the host the settings are
    for) each time, and the settings found by what they rendered to.
    """

    def __init__(self) -> None:
        self._built: dict[tuple[Any, ...], ConnectionSettings | None] = {}  # None: templated, render first

    def get(self, host: str, values: Mapping[str, Any], base: ConnectionSettings,
            render: Callable[[Mapping[str, Any]], Mapping[str, Any]]) -> ConnectionSettings:
        settings = self._cached(host, values, base)
        if settings is None:  # templated: the settings are those of what the values render to
            rendered = render(values)
            settings = self._cached(host, rendered, base) or _build(host, rendered, base)
        return settings

    def _cached(self, host: str, values: Mapping[str, Any], base: ConnectionSettings) -> ConnectionSettings | None:
        """The settings for ``values``, built on first use; None while they hold templates."""
        try:
            key = (host, base, *values.items())
            return self._built[key]
        except TypeError:  # a value that cannot be a key (a list, a mapping): build the settings every time
            return None if _templated(values) else _build(host, values, base)
        except KeyError:
            settings = self._built[key] = None if _templated(values) else _build(host, values, base)
            return settings


def _templated(values: Mapping[str, Any]) -> bool:
    return any(is_template(value) for value in values.values())


def _build(host: str, values: Mapping[str, Any], base: ConnectionSettings) -> ConnectionSettings:
    try:
        return ConnectionSettings.from_host_vars(host, values, base)
    except (TypeError, ValueError, ArgumentError) as exc:
        raise BadConnectionVariable(f"the connection variables of {host} cannot be used: {exc}") from None
