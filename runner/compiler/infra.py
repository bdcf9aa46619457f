"""An infra as plays. ``import_infra`` in a playbook, ``provisioning-playbook --infra`` and ``provisioning-infra``
compile to these plays, written as a playbook would write them and read by the same models:

1. **Servers**: each server is declared as a host (``add_host`` on localhost), then one ``server`` task per
   provider runs on those hosts under ``strategy: free``, throttled by the provider's ``parallel``: servers are
   created (or deleted) at the same time — idempotent by name, check mode says "would create", each waited for
   until SSH answers. A server that runs joins the run's inventory with its address and login variables, in its
   groups (labels, clusters, ``taskserv_<name>``) and in ``infra_<name>``, with its ``vars`` and
   ``provisioning_*`` variables. Then a localhost play lists the taskservs each server gets, in requirement
   order.
2. **Taskservs**: one play over every server (``strategy: free``), each taskserv with one set of settings a
   block (system check, role, handlers, health check; ``runner.taskservs.tasks``) limited to the servers that
   get it, in an order that keeps each server's requirement order. The play's hosts are
   ``<servers>:&infra_<name>``: a server that does not run (in check mode, before it is created) is left out
   rather than unreachable.
3. **Clusters**: per cluster, its taskservs (and what they require that a member does not have yet) on its
   members together, with the cluster's ``vars``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from runner.actions.server_provider import SETTING_ARGUMENTS
from runner.errors import ParseError, SourcePosition, UserError
from runner.infra import Cluster, Infra, TaskservRef, load_infra
from runner.infra.hosts import host_groups, provisioning_vars
from runner.infra.servers import AnyServer
from runner.loader.role import role_files
from runner.models import Play, PlayList
from runner.models.base import POSITION_KEY
from runner.models.validation import raise_collected, validate
from runner.providers.golden import found_in_image, is_golden
from runner.taskservs.catalog import TaskservCatalog
from runner.taskservs.resolve import BASE_TASKSERV, Resolution, Step, Wanted, resolve
from runner.taskservs.tasks import DEFAULT_PROFILE, health_check_tasks, taskserv_block

if TYPE_CHECKING:
    from runner.compiler import Compiler
    from runner.plan import Plan

ServerAction = Literal["create", "use", "look", "delete"]
RUNNING_GROUP_PREFIX = "infra_"
SERVER_ARGS = "infra_server_args"  # a server host's variable: what its server task passes to its provider
SERVER_RESULT = "infra_server"  # what a server host's server task registers


@dataclass
class HostOrder:
    """One server's taskservs: everything it gets (its own and its clusters'), in install order, and the part its
    own taskservs need."""

    resolution: Resolution
    own: list[Step]


class InfraPlays:
    """The plays of one infra (as YAML data, not yet read into models)."""

    def __init__(self, infra: Infra, path: Path, catalog: TaskservCatalog, *, play_vars: dict[str, Any] | None = None,
                 tags: Sequence[str] = ()):
        self.infra = infra
        self.path = path
        self.catalog = catalog
        self.play_vars = dict(play_vars or {})
        self.tags = list(tags)
        self.errors: list[UserError] = []
        self._orders: dict[str, HostOrder | None] = {}

    @classmethod
    def load(cls, path: Path, catalog: TaskservCatalog, **others: Any) -> InfraPlays:
        return cls(load_infra(path), path, catalog, **others)

    @property
    def running_group(self) -> str:
        """Servers of this infra that a server task found running (or created) in this run."""
        return RUNNING_GROUP_PREFIX + re.sub(r"[^A-Za-z0-9_]", "_", self.infra.name or "infra")

    def check(self) -> None:
        """Raise every problem met while building plays (unknown taskservs, cycles, conflicts, profiles ...)."""
        raise_collected(self.errors)

    # -- what each server gets -----------------------------------------------------------------------------------
    def order_of(self, server: AnyServer, extra: Iterable[str] = ()) -> HostOrder | None:
        """The server's install order (None when it cannot be resolved; the problems are in ``errors``)."""
        key = server.hostname + "\0" + ",".join(extra)
        if key not in self._orders:
            own = list(server.taskservs)
            wanted = [Wanted(ref.name, ref.position) for ref in own]
            wanted += [Wanted(ref.name, ref.position) for cluster in self.infra.clusters_of(server)
                       for ref in cluster.taskservs]
            wanted += [Wanted(name) for name in extra]
            try:
                resolution = resolve(wanted, self.catalog, host=server.hostname)
            except UserError as exc:
                self._error(exc)
                self._orders[key] = None
            else:
                base = [BASE_TASKSERV]  # a server with no taskservs of its own still gets the base
                self._orders[key] = HostOrder(resolution, resolution.closure([*base, *(ref.name for ref in own)]))
        return self._orders[key]

    def ref_for(self, server: AnyServer, name: str) -> TaskservRef | None:
        """How the infra gives taskserv ``name`` to ``server`` (profile, vars): the server's own entry, else its
        clusters' (in order), as the infra inventory source has it; None when it only comes as a requirement."""
        for ref in [*server.taskservs, *(ref for c in self.infra.clusters_of(server) for ref in c.taskservs)]:
            if ref.name == name:
                return ref
        return None

    def _error(self, error: UserError) -> None:
        errors = getattr(error, "errors", None) or [error]
        self.errors += [item for item in errors if item.message not in {known.message for known in self.errors}]

    # -- 1. servers ----------------------------------------------------------------------------------------------
    @property
    def server_group(self) -> str:
        """Every server of this infra that the run works on, running or not: the hosts of the server play."""
        return self.running_group + "_servers"

    def server_plays(self, servers: Sequence[AnyServer], action: ServerAction = "create", *,
                     listing: bool = False) -> list[dict[str, Any]]:
        """Plays that create (``create``), find (``use``: they must run) or delete the servers, each server
        on its own host so that they are worked on at the same time, at most ``providers.<name>.parallel`` (and
        the forks) at once per provider; with ``listing``, a last play says what each server was found or made
        to be and the taskservs it gets."""
        verb = {"create": "Servers", "use": "Servers", "look": "Servers", "delete": "Delete servers"}[action]
        title = f"{verb} of infra {self.infra.name}"
        plays = [self._play(title, "localhost", [self._declare_task(servers, action)], self.infra.position,
                            gather_facts=False)]
        tasks: list[dict[str, Any]] = []
        providers = list(dict.fromkeys(server.provider for server in servers))
        for provider in providers:
            tasks += self._server_tasks([s for s in servers if s.provider == provider], action,
                                        only_provider=len(providers) > 1)
        play = self._play(f"{title}: {', '.join(s.hostname for s in servers)}",
                          self._pattern((s.hostname for s in servers), self.server_group), tasks,
                          self.infra.position, gather_facts=False)
        # Each server goes on as soon as its own provider call returns: one line per server as it is ready.
        play["strategy"] = "free"
        plays.append(play)
        if listing:
            plays.append(self._play(f"Servers and taskservs of infra {self.infra.name}", "localhost",
                                    [self._listing_task(servers)], self.infra.position, gather_facts=False))
        return plays

    def _declare_task(self, servers: Sequence[AnyServer], action: ServerAction) -> dict[str, Any]:
        """``add_host`` for each server, with what its server task passes to its provider (``SERVER_ARGS``)."""
        items = [{"name": server.hostname, "args": self._server_arguments(server, action)} for server in servers]
        return {"name": "the servers", "add_host": {"name": "{{ item.name }}", "groups": [self.server_group],
                                                     SERVER_ARGS: "{{ item.args }}"},
                "loop": items, "loop_control": {"label": "{{ item.name }}"}, "tags": ["always"],
                # Bookkeeping of this run's inventory, not a change to anything: a second run reports none.
                "changed_when": False, POSITION_KEY: self.infra.position}

    def _server_arguments(self, server: AnyServer, action: ServerAction) -> dict[str, Any]:
        """The server's own arguments of the ``server`` module: its settings, groups and host variables."""
        settings = server.model_dump(mode="json", exclude={"taskservs", "vars"})
        args: dict[str, Any] = {name: settings[name] for name in SETTING_ARGUMENTS if settings.get(name) is not None}
        if action != "delete":
            args["labels"] = [*host_groups(self.infra, server), self.running_group]
            # As the infra inventory source has them: its clusters' vars (their groups'), then its own.
            cluster_vars = {key: value for cluster in self.infra.clusters_of(server)
                            for key, value in cluster.vars.items()}
            args["host_vars"] = {**cluster_vars, **server.vars, **provisioning_vars(self.infra, server, self.path)}
        return args

    def _server_tasks(self, servers: Sequence[AnyServer], action: ServerAction, *,
                      only_provider: bool) -> list[dict[str, Any]]:
        """The ``server`` task of one provider's servers, each host passing its own arguments."""
        provider = servers[0].provider
        config = self.infra.providers.of(provider)
        names = sorted({name for server in servers for name in self._server_arguments(server, action)})
        args: dict[str, Any] = {"name": "{{ inventory_hostname }}", "provider": provider, "infra": self.infra.name}
        args.update((name, f"{{{{ {SERVER_ARGS}.{name} | default(omit) }}}}") for name in names)
        provider_config = config.model_dump(mode="json", exclude_unset=True)
        if provider_config:
            args["provider_config"] = provider_config
        if action == "delete":
            args["state"] = "absent"
        task: dict[str, Any] = {"name": f"{provider} server", "server": args, "tags": ["always"],
                                "register": SERVER_RESULT, "throttle": config.parallel,
                                POSITION_KEY: servers[0].position}
        if only_provider:
            task["when"] = [f"inventory_hostname in {[server.hostname for server in servers]}"]
        if action in ("use", "look"):
            task.update({"check_mode": True, "changed_when": False})  # only look
        if action != "use":
            return [task]
        # A server that does not run stops the run here, with what to do about it.
        check = {"name": f"{provider} server runs", "tags": ["always"], POSITION_KEY: servers[0].position,
                 "assert": {"that": [f"{SERVER_RESULT}.add_host is defined"], "quiet": True,
                            "fail_msg": "server {{ inventory_hostname }} does not run; create it first: "
                                        f"provisioning-infra server create --infra {self.path} "
                                        "{{ inventory_hostname }}"}}
        if only_provider:
            check["when"] = task["when"]
        return [task, check]

    def _listing_task(self, servers: Sequence[AnyServer]) -> dict[str, Any]:
        """What the servers were found or made to be (in check mode: what would be created), and the taskservs
        each gets, in requirement order."""
        lines = []
        for server in servers:
            order = self.order_of(server)
            if order is not None:
                # A server left out by --limit has no result.
                outcome = (f"hostvars['{server.hostname}'].{SERVER_RESULT}.msg"
                           f" | default('{server.hostname} is not in this run')")
                line = f"{{{{ {outcome} }}}}; taskservs: " + ", ".join(step.name for step in order.own)
                image = getattr(server, "image", None)
                if is_golden(image):
                    images_dir = self.infra.providers.of(server.provider).images_dir
                    line += "; " + found_in_image(images_dir, image, [(step.name, step.taskserv.version)
                                                                      for step in order.own])
                lines.append(line)
        for cluster in self.infra.clusters:
            members = [server for server in self.infra.members(cluster) if server in servers]
            steps = self._cluster_steps(cluster, members, after_servers=True)
            if members and steps:
                names = ", ".join(name if len(hosts) == len(members) else f"{name} (on {', '.join(sorted(hosts))})"
                                  for name, hosts in steps)
                lines.append(f"cluster {cluster.name} ({', '.join(s.hostname for s in members)}): {names}")
        return {"name": "servers and their taskservs in requirement order", "debug": {"msg": lines},
                "tags": ["always"], POSITION_KEY: self.infra.position}

    # -- 2. taskservs per server -----------------------------------------------------------------------------
    def taskserv_plays(self, servers: Sequence[AnyServer], *, only: str | None = None) -> list[dict[str, Any]]:
        """One play over the servers (``strategy: free``): each server walks its own taskservs in requirement
        order and goes on at its own pace; with ``only``, that taskserv and what it needs. A block is one
        taskserv with one set of settings, limited to the servers that get it unless all of them do."""
        blocks = [block for step, ref, when in self._merged_steps(servers, only)
                  if (block := self._block(step, ref, when=when)) is not None]
        if not blocks:
            return []
        title = f"Taskserv {only}" if only else "Taskservs"
        play = self._play(f"{title} on {', '.join(s.hostname for s in servers)}",
                          self._pattern(s.hostname for s in servers), blocks, servers[0].position)
        play["strategy"] = "free"  # no server waits for another's unrelated taskservs
        return [play]

    def status_plays(self, servers: Sequence[AnyServer], *, only: str | None = None) -> list[dict[str, Any]]:
        """The health check of every taskserv each server carries (``only``: that one), tried once, failures
        ignored, nothing changed: ``provisioning-infra taskserv status``. The roles' defaults and vars are the
        play's vars files, so a check reads the port its role sets without the role running."""
        blocks: list[dict[str, Any]] = []
        files: dict[str, None] = {}
        errors: list[UserError] = []
        for step, ref, when in self._merged_steps(servers, None, with_clusters=True):
            check = step.taskserv.meta.health_check
            if check is None or (only is not None and step.name != only):
                continue
            block = self._block(step, ref, when=when)
            if block is None:
                continue
            probe = {key: value for key, value in health_check_tasks(step.name, check)[-1].items()
                     if key not in ("until", "retries", "delay", "when")}
            block["block"] = [{**probe, "ignore_errors": True}]
            blocks.append(block)
            for section in ("defaults", "vars"):
                files.update((str(path), None) for path in role_files(step.taskserv.path, section, None,
                                                                       errors=errors))
        raise_collected(errors)
        if not blocks:
            return []
        play = self._play(f"Taskserv status on {', '.join(s.hostname for s in servers)}",
                          self._pattern(s.hostname for s in servers), blocks, servers[0].position,
                          gather_facts=False)
        play.update({"strategy": "free", "vars_files": list(files)})
        return [play]

    def _merged_steps(self, servers: Sequence[AnyServer], only: str | None, *, with_clusters: bool = False
                      ) -> list[tuple[Step, TaskservRef | None, list[str] | None]]:
        """Every server's steps (its own taskservs, its clusters' too ``with_clusters``, or ``only`` and what it
        needs) merged into one order that keeps each server's; a step per taskserv and settings, with the
        condition naming its servers (None when every server gets it)."""
        lists: list[list[str]] = []
        found: dict[str, tuple[Step, TaskservRef | None, list[str]]] = {}
        for server in servers:
            order = self.order_of(server, [only] if only else [])
            if order is None:
                continue
            keys = []
            steps = order.resolution.closure([only]) if only else order.own
            for step in order.resolution.steps if with_clusters else steps:
                ref = self.ref_for(server, step.name)
                key = json.dumps([step.name, _settings(ref)], sort_keys=True, default=str)
                found.setdefault(key, (step, ref, []))[2].append(server.hostname)
                keys.append(key)
            lists.append(keys)
        merged = []
        for key in merge_orders(lists):
            step, ref, hosts = found[key]
            merged.append((step, ref, None if len(hosts) == len(servers) else [f"inventory_hostname in {hosts}"]))
        return merged

    def _block(self, step: Step, ref: TaskservRef | None, *, when: list[str] | None = None,
               delete: bool = False) -> dict[str, Any] | None:
        try:
            if delete:
                self._check_deletable(step)
            return taskserv_block(step.taskserv, profile=ref.profile if ref else DEFAULT_PROFILE,
                                  variables=ref.vars if ref else None, when=when, delete=delete,
                                  position=ref.position if ref else None)
        except UserError as exc:
            self._error(exc)
            return None

    def _check_deletable(self, step: Step) -> None:
        errors: list[UserError] = []
        if not role_files(step.taskserv.path, "tasks", "delete", errors=errors):
            raise ParseError(f"taskserv '{step.name}' cannot be deleted: its role has no tasks/delete.yml",
                             SourcePosition(str(step.taskserv.path / "tasks")))

    # -- 3. clusters -----------------------------------------------------------------------------------------
    def cluster_plays(self, clusters: Sequence[Cluster], *, after_servers: bool = True) -> list[dict[str, Any]]:
        """Each cluster's taskservs on its members together. ``after_servers``: the members' own taskservs ran
        already (the site's order), so what they installed is not installed again."""
        plays = []
        for cluster in clusters:
            members = self.infra.members(cluster)
            steps = self._cluster_steps(cluster, members, after_servers=after_servers)
            blocks = [block for name, hosts in steps for block in self._member_blocks(name, hosts, members)]
            if blocks:
                plays.append(self._play(f"Cluster {cluster.name}", self._pattern(s.hostname for s in members),
                                        blocks, cluster.position, play_vars=cluster.vars))
        return plays

    def _cluster_steps(self, cluster: Cluster, members: Sequence[AnyServer], *,
                       after_servers: bool) -> list[tuple[str, set[str]]]:
        """The taskservs a cluster installs, in requirement order, each with the members that need it."""
        lists: list[list[str]] = []
        hosts: dict[str, set[str]] = {}
        for server in members:
            order = self.order_of(server)
            if order is None:
                continue
            done = {step.name for step in order.own} if after_servers else set()
            for earlier in self.infra.clusters_of(server):
                if earlier is cluster:
                    break
                if after_servers:
                    done |= {step.name for step in order.resolution.closure(r.name for r in earlier.taskservs)}
            names = [step.name for step in order.resolution.closure(r.name for r in cluster.taskservs)
                     if step.name not in done]
            lists.append(names)
            for name in names:
                hosts.setdefault(name, set()).add(server.hostname)
        return [(name, hosts[name]) for name in merge_orders(lists)]

    def _member_blocks(self, name: str, hosts: set[str], members: Sequence[AnyServer], *,
                       delete: bool = False) -> list[dict[str, Any]]:
        """Taskserv ``name`` on the members in ``hosts``: one block per distinct profile and vars the infra gives
        them, each limited to its members unless it is for all of them."""
        step = self._step(name, members)
        if step is None:
            return []
        groups: dict[str, tuple[TaskservRef | None, list[str]]] = {}
        for server in members:
            if server.hostname in hosts:
                ref = self.ref_for(server, name)
                groups.setdefault(json.dumps(_settings(ref), sort_keys=True, default=str), (ref, []))[1].append(
                    server.hostname)
        blocks = []
        for ref, names in groups.values():
            when = None if len(names) == len(members) else [f"inventory_hostname in {names}"]
            block = self._block(step, ref, when=when, delete=delete)
            if block is not None:
                blocks.append(block)
        return blocks

    def _step(self, name: str, members: Sequence[AnyServer]) -> Step | None:
        for server in members:
            order = self.order_of(server)
            step = order.resolution.step(name) if order else None
            if step is not None:
                return step
        return None

    # -- deleting taskservs ----------------------------------------------------------------------------------
    def delete_taskserv_plays(self, name: str, servers: Sequence[AnyServer]) -> list[dict[str, Any]]:
        """On each server, ``name`` and the taskservs that need it, in reverse requirement order."""
        plays = []
        for server in servers:
            order = self.order_of(server)
            if order is None:
                continue
            if order.resolution.step(name) is None:
                self._error(ParseError(f"server '{server.hostname}' does not carry the taskserv '{name}'",
                                       server.position))
                continue
            steps = list(reversed(order.resolution.dependents(name)))
            blocks = [self._block(step, self.ref_for(server, step.name), delete=True) for step in steps]
            plays.append(self._play(f"Delete taskserv {name} on {server.hostname}", self._pattern([server.hostname]),
                                    [block for block in blocks if block is not None], server.position))
        return plays

    def delete_cluster_plays(self, cluster: Cluster) -> list[dict[str, Any]]:
        """The cluster's taskservs (and what needs them) off its members, in reverse requirement order."""
        members = self.infra.members(cluster)
        lists: list[list[str]] = []
        hosts: dict[str, set[str]] = {}
        for server in members:
            order = self.order_of(server)
            if order is None:
                continue
            doomed = {step.name for ref in cluster.taskservs for step in order.resolution.dependents(ref.name)}
            names = [step.name for step in order.resolution.steps if step.name in doomed]
            lists.append(names)
            for name in names:
                hosts.setdefault(name, set()).add(server.hostname)
        blocks = [block for name in reversed(merge_orders(lists))
                  for block in self._member_blocks(name, hosts[name], members, delete=True)]
        if not blocks:
            return []
        return [self._play(f"Delete cluster {cluster.name}", self._pattern(s.hostname for s in members), blocks,
                           cluster.position, play_vars=cluster.vars)]

    # -- the whole infra -------------------------------------------------------------------------------------
    def site(self) -> list[dict[str, Any]]:
        """Create every missing server, install every server's taskservs, then set up every cluster."""
        servers = self.infra.servers
        return [*self.server_plays(servers, listing=True), *self.taskserv_plays(servers),
                *self.cluster_plays(self.infra.clusters)]

    # -- shared ----------------------------------------------------------------------------------------------
    def _pattern(self, hostnames: Iterable[str], group: str | None = None) -> str:
        return ":".join([*hostnames, "&" + (group or self.running_group)])

    def _play(self, name: str, hosts: str, tasks: list[dict[str, Any]], position: SourcePosition | None, *,
              gather_facts: bool = True, play_vars: dict[str, Any] | None = None) -> dict[str, Any]:
        # gather_facts is always written: the taskserv roles rely on facts, whatever 'gathering' the user's
        # configuration sets for their own plays.
        play: dict[str, Any] = {"name": name, "hosts": hosts, "tasks": tasks, POSITION_KEY: position,
                                "gather_facts": gather_facts}
        variables = {**self.play_vars, **(play_vars or {})}
        if variables:
            play["vars"] = variables
        if self.tags:
            play["tags"] = list(self.tags)
        return play


def _settings(ref: TaskservRef | None) -> tuple[str, dict[str, Any]]:
    return (ref.profile, ref.vars) if ref is not None else (DEFAULT_PROFILE, {})


def merge_orders(lists: Sequence[Sequence[str]]) -> list[str]:
    """One order that keeps the order of each list (they agree: they come from the same rules)."""
    merged: list[str] = []
    for names in lists:
        previous = -1
        for name in names:
            if name in merged:
                previous = merged.index(name)
            else:
                merged.insert(previous + 1, name)
                previous += 1
    return merged


# -- the compiler's side -------------------------------------------------------------------------------------
def import_infra(compiler: Compiler, path: Path, *, base: Path, position: SourcePosition | None = None,
                 play_vars: dict[str, Any] | None = None, tags: Sequence[str] = ()) -> None:
    """Compile the plays of the infra at ``path`` (create its servers, install their taskservs, set up its
    clusters) as if written in the playbook ``base``; problems go to the compiler's errors."""
    if not path.is_file():
        compiler.error(ParseError(f"the imported infra {path} could not be found", position))
        return
    try:
        infra = InfraPlays.load(path, taskserv_catalog(compiler, base), play_vars=play_vars, tags=tags)
        plays = infra.site()
        infra.check()
    except UserError as exc:
        compiler.error(exc)
        return
    compiler.imported_infras.append(path)
    _compile(compiler, plays, base)


def taskserv_catalog(compiler: Compiler, base: Path) -> TaskservCatalog:
    """Taskservs, found where the plays of the playbook ``base`` find their roles."""
    return TaskservCatalog(compiler.options.roles_path, base.resolve().parent)


def compile_generated(compiler: Compiler, plays: list[dict[str, Any]], base: Path) -> Plan:
    """The plan of plays built here (``InfraPlays``), compiled as if written in the playbook ``base``."""
    if not compiler.plan.playbook:
        compiler.plan.playbook, compiler.plan.playbook_dir = str(base), str(base.resolve().parent)
    _compile(compiler, plays, base)
    raise_collected(compiler.errors)
    return compiler.plan


def _compile(compiler: Compiler, plays: list[dict[str, Any]], base: Path) -> None:
    try:
        read = validate(PlayList, plays, is_module=compiler.tasks.is_module, where=SourcePosition(str(base)))
    except UserError as exc:
        compiler.error(exc)
        return
    for play in read:
        # Built here as plays: a play list read from a file may also hold playbook and infra imports.
        assert isinstance(play, Play), play
        # import_role shows a role's defaults and vars to the whole play (Compiler.compile_play): a health check
        # (a task beside the role) reads the port the role's defaults set, a cluster's taskserv another's.
        compiler.compile_play(play, base.resolve())
