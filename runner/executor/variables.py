"""The variables one task sees on one host, stacked in Ansible's order with ``runner.vars``.

The plan's scopes (role defaults, play vars, vars_files, role vars, block vars, task vars, role params) map to
their ``Precedence`` level by name; the inventory's merged host vars, the host's facts, its include_vars and
set_fact/register values and the include params of the current include come from the worker's state. Every
layer is a view on data held once per worker, so building a task's variables costs a few small objects whatever
the amount of data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from runner import __version__
from runner.connection.settings import SETTING_OF
from runner.inventory.model import LOCALHOST_NAMES
from runner.plan import PlanTask
from runner.vars import FactsView, HostVars, MagicVariables, Precedence, VariableLayers

if TYPE_CHECKING:
    from runner.executor.host_vars_files import HostVarsFiles
    from runner.executor.run_options import RunOptions
    from runner.inventory import Inventory
    from runner.plan import Plan, VarScope


class WorkerState(Protocol):
    """What the variables are read from: a playbook worker's state (``runner.executor.playbook_worker``, which
    uses this module)."""

    plan: Plan
    inventory: Inventory
    options: RunOptions
    scopes: list[VarScope]
    play_state: dict[str, Any]
    host_vars_files: HostVarsFiles

    def host_runtime(self, host: str) -> HostRuntime: ...

ANSIBLE_VERSION = {"full": "2.17.0", "major": 2, "minor": 17, "revision": 0, "string": "2.17.0"}


@dataclass
class HostRuntime:
    """What a run learnt about one host: gathered facts, set_fact/register values and include_vars values.

    include_vars and set_fact/register keep separate mappings because they sit at different precedence levels:
    a set_fact value wins over an include_vars value of the same name whichever ran last, as in ansible-core.
    Each keeps, beside its values, the connection variables among them, so that finding a task's connection
    settings never scans the values.
    """

    facts: dict[str, Any] = field(default_factory=dict)
    named_facts: set[str] = field(default_factory=set)  # facts that are variables by their own name too
    vars: dict[str, Any] = field(default_factory=dict)
    included: dict[str, Any] = field(default_factory=dict)
    connection_vars: dict[str, Any] = field(default_factory=dict)
    included_connection_vars: dict[str, Any] = field(default_factory=dict)
    connection_version: int = 0  # bumped when either of these changes

    def set_vars(self, values: Mapping[str, Any]) -> None:
        """set_fact and register values (and the run's own, such as ansible_failed_result)."""
        self.vars.update(values)
        self._connection_changed(self.connection_vars, values)

    def include_vars(self, values: Mapping[str, Any]) -> None:
        self.included.update(values)
        self._connection_changed(self.included_connection_vars, values)

    def _connection_changed(self, kept: dict[str, Any], values: Mapping[str, Any]) -> None:
        picked = pick_connection_vars(values)
        if picked:
            kept.update(picked)
            self.connection_version += 1


def pick_connection_vars(values: Mapping[str, Any]) -> dict[str, Any]:
    """The connection variables (ansible_host, ansible_user ...) among ``values``."""
    return {name: value for name, value in values.items() if name in SETTING_OF}


def host_layers(worker: WorkerState, host: str) -> VariableLayers:
    """A host's own variables (inventory, facts, include_vars, set_fact/register), as ``hostvars[host]`` shows
    them."""
    runtime = worker.host_runtime(host)
    return (VariableLayers(extra_vars=worker.options.extra_vars, magic=magic_variables(worker, host),
                           merge=worker.options.hash_behaviour == "merge")
            .with_layer(Precedence.INVENTORY, worker.inventory.host_vars(host))
            .with_layer(Precedence.FACTS, FactsView(runtime.facts, runtime.named_facts))
            .with_layer(Precedence.INCLUDE_VARS, runtime.included)
            .with_layer(Precedence.SET_FACT, runtime.vars))


def task_scope_ids(node: PlanTask, payload: Mapping[str, Any]) -> list[int]:
    """The plan scopes ``node`` sees: the play's (with the roles an include made public), then its own."""
    return [*(payload.get("play_scopes") or ()), *node.scopes]


def task_variables(worker: WorkerState, host: str, node: PlanTask, payload: Mapping[str, Any]
                   ) -> Mapping[str, Any]:
    """The full variable stack for ``node`` on ``host``: the host's layers plus the play's and the task's."""
    # As Ansible's play context does for a task, the connection's own variables are defined when nothing sets
    # them (roles test `ansible_connection == 'chroot'`); hostvars[host] still shows only what was set.
    # ansible_search_path: where the task's relative files are looked for (its role's folder, then the playbook's)
    layers = host_layers(worker, host).with_defaults(
        {"ansible_connection": worker.options.defaults.connection, "ansible_host": host,
         "ansible_search_path": list(node.search_paths) or [str(worker.options.playbook_dir)]})
    for scope_id in task_scope_ids(node, payload):
        scope = worker.scopes[scope_id]
        layers = layers.with_layer(scope.kind.name, scope.vars)
    play_index = worker.play_state.get("index")
    if play_index is not None and worker.plan.plays[play_index].vars_files:
        values = worker.host_vars_files.values(worker.plan.plays[play_index], layers.as_mapping(),
                                               facts_gathered=bool(worker.host_runtime(host).facts))
        layers = layers.with_layer(Precedence.PLAY_VARS_FILES, values)
    if payload.get("vars"):
        layers = layers.with_layer(Precedence.INCLUDE_PARAMS, payload["vars"])
    if node.role is not None:
        role = worker.plan.roles[node.role]
        layers = layers.with_magic(layers.magic.for_role(role.name, role.path, role.collection))  # type: ignore[attr-defined]
    return layers.as_mapping()


def magic_variables(worker: WorkerState, host: str) -> MagicVariables:
    play = worker.play_state
    inventory = worker.inventory
    known = inventory.get_host(host) if hasattr(inventory, "get_host") else inventory.hosts.get(host)
    return MagicVariables(
        inventory_hostname=host,
        groups=inventory.groups_dict(),
        group_names=known.group_names() if known is not None else [],
        hostvars=HostVars(lambda name: host_layers(worker, name), lambda: inventory.hosts, implicit=LOCALHOST_NAMES),
        play_hosts=play.get("play_hosts", play.get("batch", [])),
        play_batch=play.get("play_hosts", play.get("batch", [])),
        play_hosts_all=play.get("hosts_all", []),
        check_mode=worker.options.check,
        diff_mode=worker.options.diff,
        playbook_dir=worker.options.playbook_dir,
        extra={**worker.options.magic_vars,
               "ansible_play_name": play.get("name", ""), "ansible_verbosity": worker.options.verbosity,
               "ansible_version": ANSIBLE_VERSION, "provisioning_version": __version__},
    )
