"""The variables one task sees on one host: Ansible's precedence as a stack of lookups, never a copy.

Highest first (what ``ChainMap`` searches first):

    extra vars (-e)
    magic variables (inventory_hostname, groups, hostvars, play hosts, check/diff mode, role_name ...)
    role params
    set_fact / register / include_vars
    include params (include_tasks/include_role vars, loop item of the include)
    task vars
    block vars
    role vars
    play vars_files
    play vars
    facts (ansible_facts and their ansible_* names)
    inventory (host_vars over group_vars, merged by the inventory)
    role defaults

Every layer is a view on data held once per worker (plan scopes, the inventory's cached merge, the host's
runtime state), so building a task's variables costs a few small objects whatever the amount of data.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from runner.plan import PlanTask, ScopeKind

if TYPE_CHECKING:
    from runner.executor.task_exec import PlaybookWorker

ANSIBLE_MANAGED = "Managed by provisioning: do not edit by hand"


@dataclass
class HostRuntime:
    """What a run learnt about one host: gathered facts and set_fact/register/include_vars values."""

    facts: dict[str, Any] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)


class FactsView(Mapping[str, Any]):
    """``ansible_facts`` plus each fact under its ``ansible_`` name, without copying the facts."""

    def __init__(self, facts: Mapping[str, Any]):
        self.facts = facts

    def __getitem__(self, key: str) -> Any:
        if key == "ansible_facts":
            return self.facts
        if key.startswith("ansible_") and key[8:] in self.facts:
            return self.facts[key[8:]]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        yield "ansible_facts"
        for key in self.facts:
            yield "ansible_" + key

    def __len__(self) -> int:
        return len(self.facts) + 1

    def __contains__(self, key: object) -> bool:
        return key == "ansible_facts" or (isinstance(key, str) and key.startswith("ansible_")
                                          and key[8:] in self.facts)


class HostVars(Mapping[str, Any]):
    """``hostvars``: every inventory host's variables (inventory, facts, registered), built when read."""

    def __init__(self, worker: PlaybookWorker):
        self.worker = worker

    def __getitem__(self, host: str) -> Mapping[str, Any]:
        if host not in self.worker.inventory.hosts:
            raise KeyError(host)
        return host_base_variables(self.worker, host)

    def __iter__(self) -> Iterator[str]:
        return iter(self.worker.inventory.hosts)

    def __len__(self) -> int:
        return len(self.worker.inventory.hosts)


def host_base_variables(worker: PlaybookWorker, host: str) -> ChainMap[str, Any]:
    runtime = worker.host_runtime(host)
    return ChainMap(runtime.vars, FactsView(runtime.facts), worker.inventory.host_vars(host))


def _scope_layers(worker: PlaybookWorker, scope_ids: list[int]) -> dict[ScopeKind, list[Mapping[str, Any]]]:
    layers: dict[ScopeKind, list[Mapping[str, Any]]] = {}
    for scope_id in scope_ids:
        scope = worker.scopes[scope_id]
        layers.setdefault(scope.kind, []).append(scope.vars)
    return layers


def task_variables(worker: PlaybookWorker, host: str, node: PlanTask, payload: Mapping[str, Any]
                   ) -> ChainMap[str, Any]:
    """The full variable stack for ``node`` on ``host`` (see the module docstring for the order)."""
    options = worker.options
    runtime = worker.host_runtime(host)
    play_scopes = payload.get("play_scopes") or []
    scopes = _scope_layers(worker, list(play_scopes) + list(node.scopes))

    def level(kind: ScopeKind) -> list[Mapping[str, Any]]:
        # Within one level the innermost scope (listed last) wins: ChainMap searches the first map first.
        return list(reversed(scopes.get(kind, [])))

    include_params = payload.get("vars") or {}
    magic = magic_variables(worker, host, node)
    maps: list[Mapping[str, Any]] = [
        options.extra_vars,
        magic,
        *level(ScopeKind.ROLE_PARAMS),
        runtime.vars,
        include_params,
        *level(ScopeKind.INCLUDE_PARAMS),
        *level(ScopeKind.TASK_VARS),
        *level(ScopeKind.BLOCK_VARS),
        *level(ScopeKind.ROLE_VARS),
        *level(ScopeKind.PLAY_VARS_FILES),
        *level(ScopeKind.PLAY_VARS),
        FactsView(runtime.facts),
        worker.inventory.host_vars(host),
        *level(ScopeKind.ROLE_DEFAULTS),
    ]
    return ChainMap(*maps)  # type: ignore[arg-type]


def magic_variables(worker: PlaybookWorker, host: str, node: PlanTask) -> dict[str, Any]:
    from runner.templating import OMIT

    play = worker.play_state
    role = worker.plan.roles[node.role] if node.role is not None else None
    return {
        "inventory_hostname": host,
        "inventory_hostname_short": host.split(".")[0],
        "groups": worker.inventory.groups_dict(),
        "group_names": worker.inventory.hosts[host].group_names() if host in worker.inventory.hosts else [],
        "hostvars": HostVars(worker),
        "play_hosts": play.get("batch", []),
        "ansible_play_batch": play.get("batch", []),
        "ansible_play_hosts": play.get("hosts", []),
        "ansible_play_hosts_all": play.get("hosts_all", []),
        "ansible_play_name": play.get("name", ""),
        "ansible_check_mode": worker.options.check,
        "ansible_diff_mode": worker.options.diff,
        "ansible_verbosity": worker.options.verbosity,
        "playbook_dir": worker.options.playbook_dir,
        "role_name": role.name if role else None,
        "role_path": role.path if role else None,
        "ansible_role_name": role.name if role else None,
        "omit": OMIT,
        "ansible_managed": ANSIBLE_MANAGED,
        "ansible_version": {"full": "2.17.0", "major": 2, "minor": 17, "revision": 0, "string": "2.17.0"},
        "provisioning_version": _version(),
    }


def _version() -> str:
    from runner import __version__

    return __version__
