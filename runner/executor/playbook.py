"""The controller of a playbook run: plays, serial batches, strategies, handlers, failure policies, the recap.

The controller owns the plan and decides what runs where; workers (runner.executor.pool) do the work. Under
the linear strategy every host of a batch runs a task before any host starts the next one (hosts whose blocks
took different paths run the earliest pending task first); under free, each host goes at its own pace.
"""

from __future__ import annotations

import asyncio
import sys
from collections import ChainMap
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from runner.actions.run_state import AddedHost, JoinedGroup
from runner.callbacks.base import Callback, HostStats, PlayInfo, TaskInfo
from runner.errors import FAILED_AT, FAILED_IN, PLAYBOOK_ERROR, NotFoundError, OptionError, SourcePosition, UserError
from runner.executor.debug_decisions import implicit_flush
from runner.executor.executor_choice import LOCAL, ExecutorChoice, start_workers
from runner.executor.fact_cache import FactCache, with_origin
from runner.executor.host_walk import HostEnded, HostFailed, HostUnreachable, HostWalker, IncludeFailed, Step, Walk
from runner.executor.inventory_refresh import DynamicInventory, InventoryLoader
from runner.executor.outcome import exit_code_for, run_with_workers
from runner.executor.placement import SHARD_VARIABLE
from runner.executor.playbook_worker import PlaybookWorker, RunOptions
from runner.executor.resume import HostPosition, Key, ResumePlan, stable_key
from runner.executor.start_at import any_match, skipped_before
from runner.executor.task_result import NOTIFY, IncludeEntry, TaskResult, received
from runner.executor.workers import Workers
from runner.inventory.pattern_mismatch import check_pattern
from runner.plan import Plan, PlanFragment, PlanPlay, PlanRole, PlanTask, handler_names, handler_topics
from runner.templating import Templar, is_template, mark_unsafe
from runner.util.debug_log import DEBUG_LOG

if TYPE_CHECKING:
    from runner.inventory import Inventory

# Compiles an include at run time: (include node, target file or role) -> what it adds to the plan. It is the
# compiler that made the plan, so the controller's plan already holds the fragment; workers get it broadcast.
IncludeCompiler = Callable[[PlanTask, str, Mapping[str, str | bool]], PlanFragment]


@dataclass
class PlayState:
    """Hosts of the current batch and what happened to them."""

    play: PlanPlay
    batch: list[str]
    failed: set[str] = field(default_factory=set)
    unreachable: set[str] = field(default_factory=set)
    ended: set[str] = field(default_factory=set)
    notified: dict[str, list[str]] = field(default_factory=dict)  # handler name or topic -> hosts, in order
    stop_play: bool = False
    stopped_by_failure: bool = False  # any_errors_fatal or max_fail_percentage stopped it (not meta: end_play)
    play_ended: bool = False  # meta: end_play, which ends the play's later serial batches too (end_batch does not)
    skip: frozenset[int] = frozenset()  # tasks before --start-at-task
    # The role defaults and vars an ``include_role`` with ``public: true`` exposed to a host's later tasks.
    public_scopes: dict[str, list[int]] = field(default_factory=dict)
    # include_role: the roles (name, parameters, files) each host included, for allow_duplicates: false
    included_roles: dict[str, set[tuple[str, str, str]]] = field(default_factory=dict)
    # An unreachable host's walk, held where it stopped (with the result that stopped it), as Ansible keeps its
    # place: ``meta: clear_host_errors`` run by any host lets it go on from there.
    parked: dict[str, tuple[Walk, TaskResult]] = field(default_factory=dict)
    # What the workers were last told ansible_play_hosts is: the batch but its failed and unreachable hosts.
    told_play_hosts: list[str] | None = None

    @property
    def active(self) -> list[str]:
        gone = self.failed | self.unreachable | self.ended
        return [h for h in self.batch if h not in gone]


class PlaybookExecutor:
    def __init__(self, plan: Plan, inventory: Inventory, options: RunOptions, callbacks: Callback, *, forks: int,
                 limit: str | None = None, include_compiler: IncludeCompiler | None = None,
                 include_path: Callable[[PlanTask, str], str] | None = None,
                 start_at_task: str | None = None, step: Callable[[TaskInfo], bool] | None = None,
                 resume: ResumePlan | None = None, executor: ExecutorChoice = LOCAL,
                 fact_cache: FactCache | None = None, reload_inventory: InventoryLoader | None = None):
        self.plan = plan
        self.inventory = inventory
        # what the run added to the inventory, applied again when meta: refresh_inventory reads it anew
        self.dynamic_inventory = DynamicInventory(reload_inventory)
        self.options = options
        self.callbacks = callbacks
        self.forks = forks
        self.limit = limit
        self.include_compiler = include_compiler
        # where an include_tasks' file is, for its ``included:`` line (the compiler finds it as it compiles it)
        self.include_path = include_path
        self.start_at_task = start_at_task
        # --step: asked before each task (meta tasks aside) whether to run it; False skips it for its hosts.
        self.step = step
        self.executor = executor
        self.fact_cache = fact_cache or FactCache()
        self.nodes: dict[int, PlanTask] = {task.id: task for task in plan.tasks}
        self.stats: dict[str, HostStats] = {}
        # (include node, target) -> the included top-level task ids and the scopes of the roles it brought
        self.include_cache: dict[tuple[Any, ...], tuple[list[int], list[int]]] = {}
        self.pool: Workers | None = None
        self.ever_failed: set[str] = set()
        self.ever_unreachable: set[str] = set()
        self.stopped_by: int | None = None  # the signal that stopped the run (Ctrl-C, SIGTERM, SIGHUP)
        # One limit per throttled task node, shared by every call of it: under the free strategy each host runs
        # the task on its own, and the limit must still hold across them.
        self.throttles: dict[int, asyncio.Semaphore] = {}
        # --resume: what the resumed run left; each host's position in the current play, until it passes it
        self.resume = resume
        self.positions: dict[str, HostPosition] = {}
        self.fragment_base: dict[int, int] = {}  # an included task's id -> the id of its include's first task
        # What each host registered and set (set_fact) so far, newest value per name: what a task's name may show,
        # as Ansible templates a header with the first host's variables.
        self.host_set_vars: dict[str, dict[str, Any]] = {}
        self.notified_before: Mapping[str, list[str]] = {}  # host -> handlers notified before its position
        self.task_infos: dict[int, TaskInfo] = {}  # each task node's latest run, as callbacks know it

    # -- the run ------------------------------------------------------------------------------------------
    def run(self) -> int:
        if self.start_at_task is not None and not any_match(self.plan, self.start_at_task):
            raise OptionError(f"no task matches --start-at-task '{self.start_at_task}' (it can name a task of the "
                              "playbook, its roles and imports, not one inside an include)")
        hosts = list(self.inventory.hosts)
        self.pool = start_workers(self.executor, hosts or ["localhost"], self.forks,
                                  PlaybookWorker(self.plan, self.inventory, self.options), shard_of=self._shard)
        for warning in self.plan.warnings:  # compiling's, before the first play as ansible-core loads them
            self.callbacks.warning(warning)
        self.callbacks.playbook_start(self.plan.playbook, check=self.options.check, plays=len(self.plan.plays))

        async def plays() -> None:
            # the implicit localhost's entry too: a play on it reads and writes one
            self._restore_cached_facts(hosts if "localhost" in hosts else [*hosts, "localhost"])
            self._restore_values()
            for index, play in enumerate(self.plan.plays):
                if not await self._run_play(play, index):
                    break

        self.stopped_by = run_with_workers(self.pool, plays)
        code = self.exit_code()
        self.callbacks.playbook_end(self.stats, int(code))
        return int(code)

    def _restore_cached_facts(self, hosts: list[str]) -> None:
        """The fact cache's facts and cacheable set_fact values of ``hosts``, given to every worker
        before the first play, as if this run had gathered and set them."""
        assert self.pool is not None
        for host, cached in self.fact_cache.load(hosts).items():
            # a cacheable set_fact's values are facts too (ansible_facts.foo), and variables of their own name
            self.pool.broadcast({"facts": {host: mark_unsafe({**cached.facts, **cached.values})},
                                 "vars": {host: mark_unsafe(cached.values)}})

    def _cache_facts(self, node: PlanTask, host: str, result: TaskResult) -> None:
        """What the task taught the fact cache: gathered or reported facts, cacheable set_fact values; a
        ``meta: clear_facts`` empties the host's entry, as in Ansible."""
        if result.meta == "clear_facts":
            self.fact_cache.clear(host)
        gathered = node.kind == "facts" and result.status == "ok"
        for owner, facts in result.facts.items():
            self.fact_cache.update(owner, facts=facts, gathered=gathered and owner == host)
        for owner, values in result.cached.items():
            self.fact_cache.update(owner, values=with_origin(values, node.position))

    def _restore_values(self) -> None:
        """--resume: the variables hosts had registered and set in the resumed run, given back to every worker
        (and recorded again, so resuming this run restores them too)."""
        if self.resume is None:
            return
        assert self.pool is not None
        for host, values in self.resume.values.items():
            self.pool.broadcast({kind: {host: named} for kind, named in values.items()
                                 if kind in ("vars", "include_vars")})
            self._restore_inventory(values)
            self.callbacks.host_values(None, host, values)
        for host, names in self.resume.hidden.items():
            self.callbacks.warning(f"{host}: not restored from run {self.resume.run_id}, set by a no_log task: "
                                   f"{', '.join(names)}")

    def _restore_inventory(self, values: Mapping[str, Mapping[str, Any]]) -> None:
        """The hosts and groups the resumed run's tasks added (add_host, a created server, group_by), added again:
        the plays after them find them, even where the task that added them is not run again."""
        assert self.pool is not None
        added = [AddedHost(name, tuple(entry["groups"]), dict(entry["vars"]))
                 for name, entry in values.get("add_host", {}).items()]
        joined = [JoinedGroup(entry["group"], entry["host"], tuple(entry["parents"]))
                  for entry in values.get("group_by", {}).values()]
        changes: list[AddedHost | JoinedGroup] = [*added, *joined]
        for change in changes:
            self.dynamic_inventory.apply(self.inventory, change)
        for host in added:
            self.pool.add_host(host.name)
        if added or joined:
            self.pool.broadcast({"add_host": added, "add_group": joined})

    def _shard(self, host: str) -> str | None:
        """The shard whose nodes drive ``host`` under the Ray executor (its provisioning_shard), if any."""
        shard = self.inventory.host_vars(host).get(SHARD_VARIABLE) if self.inventory.get_host(host) else None
        return str(shard) if shard not in (None, "") else None

    def exit_code(self) -> int:
        return exit_code_for(stopped_by=self.stopped_by, unreachable=bool(self.ever_unreachable),
                             failed=bool(self.ever_failed))

    def _stats(self, host: str) -> HostStats:
        return self.stats.setdefault(host, HostStats())

    # -- plays and batches --------------------------------------------------------------------------------
    def _play_hosts(self, play: PlanPlay) -> list[str]:
        variables: dict[str, Any] = {}
        for scope_id in play.scopes:
            variables.update(self.plan.scopes[scope_id].vars)
        variables.update(self.options.extra_vars)
        pattern = Templar(variables).template(play.hosts)
        check_pattern(self.inventory, pattern, self.options.host_pattern_mismatch, self.callbacks.warning)
        hosts = [h.name for h in self.inventory.get_hosts(pattern, limit=self.limit)]
        if play.order == "reverse_inventory":
            hosts.reverse()
        elif play.order == "sorted":
            hosts.sort()
        elif play.order == "reverse_sorted":
            hosts.sort(reverse=True)
        elif play.order == "shuffle":
            import random

            random.shuffle(hosts)
        return hosts

    def _batches(self, play: PlanPlay, hosts: list[str]) -> list[list[str]]:
        if not play.serial:
            return [hosts]
        sizes = []
        for value in play.serial:
            text = str(value).strip()
            # A percentage of the play's hosts rounds down, to one host at least, as Ansible's pct_to_int.
            size = int(len(hosts) * float(text[:-1]) / 100.0) if text.endswith("%") else int(text)
            sizes.append(max(1, size))
        batches, start, index = [], 0, 0
        while start < len(hosts):
            size = sizes[min(index, len(sizes) - 1)]
            batches.append(hosts[start:start + size])
            start += size
            index += 1
        return batches

    async def _run_play(self, play: PlanPlay, index: int) -> bool:
        """Run one play; False when the run must stop (any_errors_fatal, max_fail_percentage, end of hosts)."""
        skip: frozenset[int] = frozenset()
        if self.start_at_task is not None:
            before = skipped_before(self.plan, play, self.start_at_task)
            if before is None:
                return True  # the task is in a later play: nothing of this one runs
            skip, self.start_at_task = frozenset(before), None
        hosts = self._play_hosts(play)
        finished: list[str] = []
        if self.resume is not None:
            finished = [h for h in hosts if h in self.resume.finished.get(index, set())]
            hosts = [h for h in hosts if h not in finished]
            self.positions = dict(self.resume.positions.get(index, {}))
        check = play.check_mode if isinstance(play.check_mode, bool) else self.options.check
        self.callbacks.play_start(PlayInfo(play.name, str(play.hosts), play.position, check, play.strategy), hosts)
        if finished:
            self.callbacks.play_hosts_done(finished)  # finished in the resumed run: finished in this one too
            if not hosts:
                return True
        if not hosts:
            self.callbacks.warning("No hosts matched, nothing to do" if not self.limit else
                                   f"No hosts matched the limit '{self.limit}', nothing to do")
            return True
        for host in hosts:
            self._stats(host)
        for batch in self._batches(play, hosts):
            state = PlayState(play, batch, skip=skip)
            if self.resume is not None:
                self.notified_before = self.resume.notified.get(index, {})
            assert self.pool is not None
            self.pool.broadcast({"play": {"name": play.name, "hosts": hosts, "batch": batch, "hosts_all": hosts,
                                          "index": index}})
            if play.strategy == "host_pinned":
                await self._run_pinned(state, play.sections)
            else:
                await self._run_sections(state, play.sections)
            self.callbacks.play_hosts_done([h for h in batch if h not in state.failed | state.unreachable])
            over_percentage = self._over_fail_percentage(play, state)
            if over_percentage:
                # ansible-core (2.19 and 2.21) says it only here, and twice: its linear strategy sends it when the
                # percentage is passed and again as every host is then failed. A play whose hosts all failed
                # otherwise, or an any_errors_fatal stop, ends without it.
                self.callbacks.no_hosts_remaining()
                self.callbacks.no_hosts_remaining()
            if (state.failed or state.unreachable) and (play.any_errors_fatal is True or over_percentage):
                return False
            if not [h for h in batch if h not in state.failed | state.unreachable]:
                return False
            if state.play_ended:
                break
        return True

    def _passes_by(self, state: PlayState, host: str, key: Key, node: PlanTask) -> bool:
        """Whether ``host`` passes this step by without running it or showing it: ``gathering = smart`` and its
        facts are known (gathered earlier in the run, or in the fact cache), or it resumes later."""
        if node.kind == "facts" and state.play.gather_smart and self.fact_cache.gathered(host):
            return True
        return host in self.positions and self._resumes_later(state, host, key, node)

    def _resumes_later(self, state: PlayState, host: str, key: Key, node: PlanTask) -> bool:
        """--resume: whether ``host`` skips this step, being before where it stopped in the resumed run. Fact
        gathering runs again (facts are the host's now). Once the host reaches its position it runs as usual,
        with the handlers its earlier tasks had notified notified again (they had not run for it)."""
        position = self.positions.get(host)
        if position is None or node.kind == "facts":
            return False
        stable = stable_key(key, self.fragment_base)
        if len(stable) < len(position.key) and position.key[:len(stable)] == stable:
            return False  # the include that holds the position: it runs to bring its tasks back
        if position.before(stable):
            return True
        del self.positions[host]
        for name in self.notified_before.get(host, ()):
            hosts = state.notified.setdefault(name, [])
            if host not in hosts:
                hosts.append(host)
        return False

    def _over_fail_percentage(self, play: PlanPlay, state: PlayState) -> bool:
        if play.max_fail_percentage is None:
            return False
        failed = len(state.failed | state.unreachable)
        return failed * 100.0 / len(state.batch) > float(play.max_fail_percentage)

    # -- sections -----------------------------------------------------------------------------------------
    def _walker(self, host: str, state: PlayState, *, tasks: bool = True) -> HostWalker:
        """A host's walk through ``state``'s play: its tasks, or (``tasks`` False) a handler."""
        def on_rescue(failure: HostFailed) -> None:
            node, result = failure.node, failure.result
            if failure.own:
                self._stats(host).rescued += 1
                self._stats(host).failed = max(0, self._stats(host).failed - 1)
            failed_task = {"name": node.name, "action": node.module, "position": node.position}
            # Data, never a template to render: a failure's message may quote the template that failed
            values = mark_unsafe({"ansible_failed_task": failed_task,
                                  "ansible_failed_result": {k: v for k, v in result.result.items()
                                                            if not k.startswith("_")}})
            assert self.pool is not None
            self.pool.broadcast({"vars": {host: values}})

        return HostWalker(self.nodes, lambda node, entry: self._resolve_include(state, node, entry, host),
                          on_rescue, skip=state.skip,
                          resumes_later=(lambda key, node: self._passes_by(state, host, key, node))
                          if tasks and (host in self.positions or state.play.gather_smart) else None)

    def _resolve_include(self, state: PlayState, node: PlanTask, entry: IncludeEntry, host: str) -> list[int]:
        target = entry.target
        if node.kind == "include_role" and not self._role_may_run(state, host, entry):
            return []
        try:
            key = (node.id, target, *sorted(entry.files.items()), *sorted(entry.flags.items()))
            top, role_scopes = self.include_cache.get(key) or self._compile_include(state, node, entry, key)
        except NotFoundError as error:
            if not entry.rescuable:  # include_role's rescuable: false: an error in the playbook, as an import's
                raise
            self._stats(host).failed += 1
            info = self.task_infos.get(node.id)
            if node.kind == "include_role":
                # ansible-core 2.21's: the include's failed result, whose error the view shows as any failure's
                failure = {"changed": False, "failed": True, "msg": error.message, FAILED_IN: PLAYBOOK_ERROR,
                           FAILED_AT: str(error.position) if error.position is not None else None}
            else:
                # ansible-core's words and layout for an include that names nothing; the host fails the include
                origin = f"\n{error.position.origin()}\n" if error.position is not None else ""
                sys.stderr.write(f"[ERROR]: {error.message}{origin}\n")
                failure = {"changed": False, "failed": True, "include": target, "reason": error.message,
                           FAILED_IN: "include"}
            if info is not None:  # its fatal line, what ansible-core's result for the include says
                self.callbacks.host_result(info, host, failure)
            raise IncludeFailed(error.message, "msg" if node.kind == "include_role" else "reason") from None
        if entry.flags.get("public") is True:
            # include_role's ``public: true``: the role's defaults and vars reach the host's later tasks of the play.
            exposed = state.public_scopes.setdefault(host, [])
            exposed += [scope for scope in role_scopes if scope not in exposed]
        return top

    def _missing_includes(self, state: PlayState, node: PlanTask, result: TaskResult) -> set[int]:
        """The entries of an include's result whose file or role is not there (and that fail the host rather than
        the run: include_role's ``rescuable``), by index; compiled now, the others are ready for the walk."""
        if result.include is None or result.status == "failed":
            return set()
        missing = set()
        for index, entry in enumerate(result.include.entries):
            if not entry.rescuable:
                continue
            key = (node.id, entry.target, *sorted(entry.files.items()), *sorted(entry.flags.items()))
            if key in self.include_cache:
                continue
            try:
                self._compile_include(state, node, entry, key)
            except NotFoundError:
                missing.add(index)
            except UserError:
                continue  # an error in what it includes: raised when the host is walked into it, as before
        return missing

    @staticmethod
    def _role_may_run(state: PlayState, host: str, entry: IncludeEntry) -> bool:
        """include_role's ``allow_duplicates: false``: the role is left out for a host that already included it
        in this play with the same parameters and files (ansible-core's role cache tells roles apart by those)."""
        identity = (entry.target, repr(sorted(entry.vars.items(), key=lambda kv: str(kv[0]))),
                    repr(sorted(entry.files.items())))
        included = state.included_roles.setdefault(host, set())
        if identity in included and entry.flags.get("allow_duplicates") is False:
            return False
        included.add(identity)
        return True

    def _compile_include(self, state: PlayState, node: PlanTask, entry: IncludeEntry,
                         key: tuple[Any, ...]) -> tuple[list[int], list[int]]:
        if self.include_compiler is None:
            raise UserError(f"{node.position}: dynamic includes need a compiler")
        fragment = self.include_compiler(node, entry.target, {**entry.files, **entry.flags})
        for new in fragment.tasks:
            self.nodes[new.id] = new
            self.fragment_base[new.id] = fragment.tasks[0].id
        # An included role's handlers join the play's, so its tasks can notify them.
        state.play.handlers.extend(h for h in fragment.handlers if h not in state.play.handlers)
        assert self.pool is not None
        self.pool.broadcast({"fragment": fragment.model_dump()})
        top = _top_level([task for task in fragment.tasks if task.id not in fragment.handlers])
        role_scopes = [scope for role in fragment.roles for scope in (role.defaults_scope, role.vars_scope)
                       if scope is not None]
        self.include_cache[key] = (top, role_scopes)
        return top, role_scopes

    async def _run_sections(self, state: PlayState, sections: list[list[int]]) -> None:
        """Every host through each section in turn, the handlers flushed after each."""
        for section in sections:
            await self._run_section(state, section)
            await self._section_flush(state)
            if state.stop_play:
                break

    async def _run_pinned(self, state: PlayState, sections: list[list[int]]) -> None:
        """``strategy: host_pinned``, as Ansible's: at most ``forks`` hosts are in the play at once, each taking
        every section (its handlers flushed after each) as under ``free``; a host starts when one before it has
        gone through the whole play."""
        slots = asyncio.Semaphore(self.forks)

        async def pinned(host: str) -> None:
            async with slots:
                for section in sections:
                    if host not in state.active or state.stop_play:
                        return
                    await self._run_free(state, host, self._walker(host, state).walk(section))
                    await self._section_flush(state, [host])

        await asyncio.gather(*(pinned(host) for host in state.active))

    async def _run_section(self, state: PlayState, ids: list[int]) -> None:
        walks = {host: self._walker(host, state).walk(ids) for host in state.active}
        if state.play.strategy == "free":
            await asyncio.gather(*(self._run_free(state, host, walk) for host, walk in walks.items()))
        else:
            await self._run_linear(state, walks)

    async def _run_linear(self, state: PlayState, walks: dict[str, Walk]
                          ) -> None:
        pending: dict[str, Step] = {}
        behind: set[str] = set()  # revived hosts, whose next tasks wait until the others are through
        for host, walk in walks.items():
            self._advance(state, host, walk, None, pending)
        while pending and not state.stop_play:
            ahead = {h: step for h, step in pending.items() if h not in behind}
            if not ahead:
                behind.clear()
                ahead = pending
            first = min(step.key for step in ahead.values())
            group = [h for h, step in ahead.items() if step.key == first]
            node = pending[group[0]].node
            group = [h for h in group if pending[h].node.id == node.id]
            results = await self._run_task(state, node, {h: pending[h] for h in group})
            failure = self._failing_everyone(state, node, results)
            failed_before = set(state.failed)
            handler_failed: dict[str, HostFailed] = {}
            if _flushes_handlers(node):
                # a flush_handlers whose condition is false flushes nothing for its host, as in ansible-core
                handler_failed = await self._flush_handlers(state, [h for h in group if results[h].status != "skipped"])
                if state.stop_play:  # any_errors_fatal stopped the play at the handler: nothing more to walk
                    handler_failed = {}
                # as in ansible-core, a handler's failure is the flush_handlers task's, in the host's block: a
                # rescue there catches it (the walk fails the host again when none does)
                state.failed -= set(handler_failed)
                self.ever_failed -= set(handler_failed)
                failed_before = set(state.failed)
            for host in group:
                # under any_errors_fatal, a host that did not fail the task fails it too, in its block
                fails_too = failure if failure is not None and not results[host].failed else handler_failed.get(host)
                self._advance(state, host, walks[host], results[host], pending, fails_too)
            for host in [h for h in pending if failure is not None and h not in group]:
                self._advance(state, host, walks[host], None, pending, failure)
            if self._fatal(state, node, results, state.failed - failed_before):
                state.stop_play = state.stopped_by_failure = True
            if any(results[host].meta == "clear_host_errors" for host in group):
                behind |= self._revive(state, walks, pending)

    def _revive(self, state: PlayState, walks: Mapping[str, Walk], pending: dict[str, Step]) -> set[str]:
        """``meta: clear_host_errors``: the hosts that went unreachable go on from the task after the one that
        could not reach them, as in Ansible (whose lockstep runs those tasks, which come before the one running
        now, once the other hosts are through). The hosts revived."""
        revived: set[str] = set()
        for host, (walk, result) in list(state.parked.items()):
            if walks.get(host) is not walk:  # held by another section or a handler: not this walk's to resume
                continue
            del state.parked[host]
            state.unreachable.discard(host)
            # the errors are cleared: the result that stopped the host no longer does
            self._advance(state, host, walk, replace(result, ignored=True), pending)
            if host in pending:
                revived.add(host)
        return revived

    async def _run_free(self, state: PlayState, host: str, walk: Walk) -> None:
        pending: dict[str, Step] = {}
        self._advance(state, host, walk, None, pending)
        while host in pending and not state.stop_play:
            step = pending[host]
            results = await self._run_task(state, step.node, {host: step})
            self._advance(state, host, walk, results[host], pending)
            if _flushes_handlers(step.node) and results[host].status != "skipped":
                await self._flush_handlers(state, [host])

    def _advance(self, state: PlayState, host: str, walk: Walk,
                 result: TaskResult | None, pending: dict[str, Step], failure: HostFailed | None = None) -> None:
        """Feed ``result`` to the host's walk (or, with ``failure``, fail the step it is at) and record its next
        step (or why it stopped)."""
        pending.pop(host, None)
        if state.stop_play:
            walk.close()
            return
        if failure is None and result is not None and result.unreachable and not result.ignored:
            state.unreachable.add(host)
            self.ever_unreachable.add(host)
            state.parked[host] = (walk, result)
            return
        try:
            if failure is not None:
                pending[host] = walk.throw(failure)
            else:
                pending[host] = walk.send(result) if result is not None else next(walk)
        except StopIteration:
            return
        except HostFailed:
            state.failed.add(host)
            self.ever_failed.add(host)
        except HostUnreachable:
            state.unreachable.add(host)
            self.ever_unreachable.add(host)
        except HostEnded as ended:
            state.ended.add(host)
            if str(ended) == "end_play":
                state.stop_play = state.play_ended = True

    def _failing_everyone(self, state: PlayState, node: PlanTask, results: Mapping[str, TaskResult]
                          ) -> HostFailed | None:
        """Under any_errors_fatal, the failure every other host of the play fails with, where it is, as in
        Ansible: one in a block with a rescue or an always goes there."""
        if not (node.any_errors_fatal is True or state.play.any_errors_fatal is True):
            return None
        failed = [result for result in results.values() if result.failed and not result.ignored]
        return HostFailed(node, failed[0], own=False) if failed else None

    def _fatal(self, state: PlayState, node: PlanTask, results: Mapping[str, TaskResult],
               newly_failed: set[str]) -> bool:
        failed = [h for h, r in results.items() if r.failed and not r.ignored]
        if not failed and not newly_failed:  # an include that named nothing fails its host with an ok result
            return False
        if node.any_errors_fatal is True or state.play.any_errors_fatal is True:
            # The play stops only for a failure that no rescue or always is handling.
            if not newly_failed:
                return False
            for host in state.active:
                state.failed.add(host)
            return True
        return self._over_fail_percentage(state.play, state)

    # -- one task on a group of hosts ---------------------------------------------------------------------
    def _task_info(self, state: PlayState, node: PlanTask, step: Step, is_handler: bool = False,
                   host: str | None = None) -> TaskInfo:
        """What callbacks know of a task; the step's key (where the walk is) tells apart runs of one task node,
        as when a file is included once per loop item. ``host``: the first host the task runs on."""
        role = self.plan.roles[node.role].display_name if node.role is not None else None
        return TaskInfo(name=self._task_name(state, node, step, host), module=node.module or node.kind,
                        position=node.position, role=role, is_handler=is_handler, args=node.args,
                        no_log=node.no_log is True,
                        check_mode=self.options.check if node.check_mode is None else node.check_mode is True,
                        diff=node.diff if isinstance(node.diff, bool) else None,
                        uid=".".join(map(str, stable_key(step.key, self.fragment_base))))

    def _task_name(self, state: PlayState, node: PlanTask, step: Step, host: str | None = None) -> str:
        """The name headers show, templated as Ansible does with what holds for every host (extra vars, include
        params, play, role, block and task vars) and what ``host``, the first, registered and set; left as
        written when it needs more."""
        written = node.module_written or node.module or node.kind
        role = (node.include or {}).get("name") if node.kind == "include_role" else None
        if not node.name and role:
            return f"{written} : {role}"  # the role's name as written, as ansible-core names the include
        name = node.name or written
        if not is_template(name):
            return name
        host_vars = self.host_set_vars.get(host, {}) if host is not None else {}
        try:
            return str(self._task_templar(state, node, step, host_vars).template(name))
        except UserError:
            return name

    def _task_templar(self, state: PlayState, node: PlanTask, step: Step,
                      host_vars: Mapping[str, Any] | None = None) -> Templar:
        """A templar over what holds for every host of a task: extra vars, include params, play, role, block
        and task vars; ``host_vars`` (one host's registered and set values) come between the include params and
        the scopes, as in Ansible's precedence."""
        scopes = [self.plan.scopes[i].vars for i in reversed([*state.play.scopes, *node.scopes])]
        return Templar(ChainMap(self.options.extra_vars, step.vars, dict(host_vars or {}), *scopes))

    def _tell_play_hosts(self, state: PlayState) -> None:
        """ansible_play_hosts and ansible_play_batch as ansible-core has them when a task starts: the batch
        without the hosts that failed (a failure no rescue caught) or went unreachable; sent when they change."""
        gone = state.failed | state.unreachable
        play_hosts = [host for host in state.batch if host not in gone]
        if play_hosts != (state.batch if state.told_play_hosts is None else state.told_play_hosts):
            assert self.pool is not None
            self.pool.broadcast({"play_hosts": play_hosts})
        state.told_play_hosts = play_hosts

    async def _run_task(self, state: PlayState, node: PlanTask, steps: Mapping[str, Step],
                        is_handler: bool = False) -> dict[str, TaskResult]:
        assert self.pool is not None
        hosts = list(steps)
        self._tell_play_hosts(state)
        info = self._task_info(state, node, next(iter(steps.values())), is_handler, host=hosts[0])
        self.task_infos[node.id] = info
        if self.step is not None and node.kind != "meta" and not self.step(info):
            # Declined, as Ansible's --step "no": the task does not run, and nothing is printed or counted.
            return {host: TaskResult({"changed": False, "skipped": True}, "skipped") for host in hosts}
        self.callbacks.task_start(info, hosts)
        run_once = node.run_once is True
        targets = hosts[:1] if run_once else hosts
        limit = self._throttle(node, self._throttle_value(state, node, next(iter(steps.values()))))
        play_scopes = state.play.scopes

        async def one(host: str) -> tuple[str, TaskResult]:
            payload = {"task": node.id, "vars": steps[host].vars,
                       "play_scopes": [*play_scopes, *state.public_scopes.get(host, ())]}
            if limit is None:
                return host, received(await self._start_on(host, node, info, payload))
            async with limit:
                return host, received(await self._start_on(host, node, info, payload))

        results = dict(await asyncio.gather(*(one(h) for h in targets)))
        for host in hosts[1:] if run_once else ():
            results[host] = _shared_result(results[hosts[0]], hosts[0], host)
        for host in hosts:
            # A run_once task is shown and counted for the host that ran it, as Ansible does.
            self._after_result(state, node, host, results[host], info, report=host in targets)
        if any(results[host].meta == "refresh_inventory" for host in hosts):
            self._refresh_inventory()  # once for the task, as ansible-core runs this request
        if run_once and node.kind != "meta":
            # What it registered and set holds for every reachable host of the batch, as ansible-core's
            # get_task_hosts has it, those not at this task too (a run_once include brought it to one host only).
            for host in [h for h in state.batch if h not in steps and h not in state.unreachable]:
                self._apply_values(node, host, _shared_result(results[hosts[0]], hosts[0], host), info, own=False)
        return results

    def _refresh_inventory(self) -> None:
        """``meta: refresh_inventory``: the sources read again (with the run's added hosts and groups), given to
        every worker; a host new to the inventory gets its worker."""
        assert self.pool is not None
        inventory = self.dynamic_inventory.refreshed(self.inventory)
        if inventory is None:
            return
        self.inventory = inventory
        for host in inventory.hosts:
            self.pool.add_host(host)
        self.pool.broadcast({"inventory": inventory})

    async def _start_on(self, host: str, node: PlanTask, info: TaskInfo, payload: dict[str, Any]) -> Any:
        """The task sent to ``host``'s worker, the callbacks told first (a meta task is the controller's own)."""
        assert self.pool is not None
        if node.kind != "meta":
            self.callbacks.host_start(info, host)
        return await self.pool.run(host, payload)

    def _throttle_value(self, state: PlayState, node: PlanTask, step: Step) -> int:
        """The task's ``throttle`` as a number; a template is rendered once for all hosts, as Ansible does, and
        one that gives no whole number stops the run with Ansible's message."""
        value = node.throttle
        if value is None or isinstance(value, bool):
            return 0
        try:
            if isinstance(value, str) and is_template(value):
                value = self._task_templar(state, node, step).template(value)
            return int(value)
        except (TypeError, ValueError) as exc:
            reason = str(exc)
        except UserError as exc:
            reason = exc.message.split(" (templating ")[0]
        raise UserError(f"Failed to convert the throttle value to an integer: {reason}",
                        SourcePosition.parse(node.position))

    def _throttle(self, node: PlanTask, throttle: int) -> asyncio.Semaphore | None:
        """The limit on how many hosts run ``node`` at once: its ``throttle``, never more than the forks (as
        Ansible has it: a throttle above the forks changes nothing)."""
        if throttle <= 0:
            return None
        if node.id not in self.throttles:
            self.throttles[node.id] = asyncio.Semaphore(min(throttle, self.forks))
        return self.throttles[node.id]

    def _after_result(self, state: PlayState, node: PlanTask, host: str, result: TaskResult,
                      info: TaskInfo, *, report: bool = True) -> None:
        assert self.pool is not None
        updates: dict[str, Any] = {kind: values for kind, values in result.host_values().items() if values}
        for added in result.added_hosts:
            self.dynamic_inventory.apply(self.inventory, added)
            self.pool.add_host(added.name)
        for joined in result.joined_groups:
            self.dynamic_inventory.apply(self.inventory, joined)
        if result.added_hosts:
            updates["add_host"] = result.added_hosts
        if result.joined_groups:
            updates["add_group"] = result.joined_groups
        if result.meta == "clear_facts":
            updates["clear_facts"] = [host]
        elif result.meta == "end_batch":
            state.stop_play = True
        elif result.meta == "clear_host_errors":
            # Ansible forgets the batch's failed and unreachable hosts: they no longer make the run's exit code
            self.ever_failed -= set(state.batch)
            self.ever_unreachable -= set(state.batch)
        self._apply_values(node, host, result, info, own=report, updates=updates)
        status = result.status
        # An include that names what is not there fails the host when it is walked into; ansible-core counts it
        # only as that failure, with no "included:" line before it.
        missing = self._missing_includes(state, node, result) if report else set()
        if report and (node.kind != "meta" or status == "failed") and not missing:  # Ansible counts no meta request
            self._stats(host).count(status, ignored=result.ignored, changed=result.changed)
        if result.changed and node.notify and status != "failed":
            notified = [str(name) for name in result.result.get(NOTIFY) or node.notify]
            self._check_notified(state, node, notified)
            for name in notified:
                hosts = state.notified.setdefault(name, [])
                if host not in hosts:
                    hosts.append(host)
        if not report:
            return
        if result.include is not None and status != "failed":
            for index, entry in enumerate(result.include.entries):
                if index in missing:
                    continue
                shown = self.include_path(node, entry.target) if self.include_path is not None else entry.target
                self.callbacks.include(shown, [host], entry.label)
        elif node.kind != "meta" or status == "failed":
            self.callbacks.host_result(info, host, result.shown())
        else:
            # What the request did, or why it did nothing; a skipped one is reported as any skipped task.
            self.callbacks.meta_result(info, host, str(result.result.get("skip_reason") or
                                                       result.result.get("msg") or ""))
            if status == "skipped":
                self.callbacks.host_result(info, host, result.shown())

    def _apply_values(self, node: PlanTask, host: str, result: TaskResult, info: TaskInfo, *, own: bool,
                      updates: dict[str, Any] | None = None) -> None:
        """The variables and facts ``result`` set, made known to every worker, recorded and cached; ``updates``
        is what to broadcast when it is more than those values (hosts added, facts cleared); ``own`` says the
        host ran the task itself."""
        assert self.pool is not None
        if updates is None:
            updates = {kind: values for kind, values in result.host_values().items() if values}
        if updates:
            # When the host ran the task itself and the result speaks only of it, its own worker has applied all
            # of this already (clear_facts aside); a run_once copy or delegated facts must reach every worker.
            own = own and "clear_facts" not in updates and all(
                set(values) <= {host} for values in result.host_values().values())
            self.pool.broadcast(updates, except_host=host if own else None)
        self._record_values(info, host, result)
        for values_host, named in result.vars.items():
            self.host_set_vars.setdefault(values_host, {}).update(named)
        if result.facts or result.cached or result.meta == "clear_facts":
            self._cache_facts(node, host, result)

    def _check_notified(self, state: PlayState, node: PlanTask, notified: list[str]) -> None:
        """A change that notifies a name no handler of the play answers stops the run, or is a warning
        (``error_on_missing_handler``), as in ansible-core: when it happens, not when the playbook is read."""
        answered = {name for names in self._handler_answers(state) for name in names}
        for name in notified:
            if name in answered or is_template(name):
                continue
            message = (f"The requested handler '{name}' was not found in either the main handlers list nor in the "
                       "listening handlers list")
            if self.options.error_on_missing_handler:
                raise UserError(message, SourcePosition.parse(node.position))
            self.callbacks.warning(message)

    def _record_values(self, info: TaskInfo, host: str, result: TaskResult) -> None:
        """The variables the task set (register, set_fact, include_vars) by host, and the hosts and groups it added
        (recorded as ``host``'s), for the run records: what a resumed run restores."""
        by_host: dict[str, dict[str, dict[str, Any]]] = {}
        for kind, values in (("vars", result.vars), ("include_vars", result.include_vars)):
            for values_host, named in values.items():
                if named:
                    by_host.setdefault(values_host, {})[kind] = named
        if result.added_hosts or result.joined_groups:
            inventory = by_host.setdefault(host, {})
            if result.added_hosts:
                inventory["add_host"] = {added.name: {"groups": list(added.groups), "vars": added.vars}
                                         for added in result.added_hosts}
            if result.joined_groups:
                inventory["group_by"] = {f"{joined.group}/{joined.host}": {"group": joined.group, "host": joined.host,
                                                                           "parents": list(joined.parents)}
                                         for joined in result.joined_groups}
        for values_host, values in by_host.items():
            self.callbacks.host_values(info, values_host, values)

    # -- handlers -----------------------------------------------------------------------------------------
    async def _section_flush(self, state: PlayState, only: list[str] | None = None) -> None:
        """The implicit flush_handlers at a section's end (of ``only`` hosts, else the batch's), unless the
        command's tags leave it out: ansible-core's is a task tagged always and the play's tags, so that
        ``--skip-tags always`` (or a tag of the play) runs no handler at a section's end."""
        if not state.play.implicit_flush:
            return
        if DEBUG_LOG.enabled:  # the hosts that reach it: the batch's still in the play (and failed ones, forced)
            gone = state.unreachable | state.ended | (set() if self._forces_handlers(state) else state.failed)
            implicit_flush([host for host in (state.batch if only is None else only) if host not in gone],
                           state.notified)
        await self._flush_handlers(state, only)

    def _forces_handlers(self, state: PlayState) -> bool:
        # the play's keyword, either way, over the command's --force-handlers, as in ansible-core
        return bool(self.options.force_handlers if state.play.force_handlers is None else state.play.force_handlers)

    async def _flush_handlers(self, state: PlayState, only: Collection[str] | None = None
                              ) -> dict[str, HostFailed]:
        """Run notified handlers once per host, in the order they are defined, then forget the notifications.

        ``only`` limits the flush to some hosts (``meta: flush_handlers`` flushes the hosts that ran it; under the
        free strategy that is one host); the end of a section flushes every host. Returns the failures of the
        hosts a handler failed (that had not failed before).
        """
        flushed = set(state.batch if only is None else only)
        failed_before = set(state.failed)
        failures: dict[str, HostFailed] = {}
        forced = self._forces_handlers(state)
        answers = self._handler_answers(state)
        # a host that failed and is still in its block's always (it ran this flush_handlers) runs its handlers
        still_walking = (set(only) & state.failed) if only is not None else set()
        # a notification is forgotten once the last handler that answers it has had its turn
        last_turn = {name: index for index, names in enumerate(answers) for name in names}
        for index, handler_id in enumerate(list(state.play.handlers)):
            allowed = set(state.active) | (state.failed if forced else still_walking)  # a failed handler stops its host
            names = answers[index]
            hosts: list[str] = []
            for name in names:
                for host in state.notified.get(name, []):
                    if host in flushed and host not in hosts:
                        hosts.append(host)
                if last_turn.get(name, index) <= index:
                    state.notified[name] = [h for h in state.notified.get(name, []) if h not in flushed]
            hosts = [h for h in hosts if h in allowed]
            if hosts:
                walks = {host: self._walker(host, state, tasks=False).walk([handler_id]) for host in hosts}
                # force_handlers runs them even when a failure stopped the play, as Ansible does
                resumed = forced and state.stopped_by_failure and state.stop_play
                if resumed:
                    state.stop_play = False
                await self._run_handler(state, walks, failures)
                state.stop_play = state.stop_play or resumed
        state.notified = {name: hosts for name, hosts in state.notified.items() if hosts}
        return {host: failed for host, failed in failures.items() if host not in failed_before}

    def _handler_answers(self, state: PlayState) -> list[list[str]]:
        return _handler_answers([self.nodes[handler_id] for handler_id in state.play.handlers], self.plan.roles,
                                lambda handler: self._handler_name(state, handler))

    def _handler_name(self, state: PlayState, handler: PlanTask) -> str | None:
        """A handler's name as ``notify`` finds it: templated, as ansible-core templates it, with what holds for
        the whole play (extra vars, play, role and block vars); None when it cannot be (then only its topics
        reach it)."""
        if not handler.name or not is_template(handler.name):
            return handler.name
        scopes = [self.plan.scopes[i].vars for i in reversed([*state.play.scopes, *handler.scopes])]
        try:
            return str(Templar(ChainMap(self.options.extra_vars, *scopes)).template(handler.name))
        except UserError as error:
            if not handler.listen:
                self.callbacks.warning(
                    f"Handler '{handler.name}' is unusable because it has no listen topics and the name could not be "
                    "templated (host-specific variables are not supported in handler names). The error: "
                    f"{getattr(error, 'message', None) or error}")
            return None

    async def _run_handler(self, state: PlayState, walks: dict[str, Walk], failures: dict[str, HostFailed]
                           ) -> None:
        pending: dict[str, Step] = {}
        for host, walk in walks.items():
            self._advance(state, host, walk, None, pending)
        while pending:
            first = min(step.key for step in pending.values())
            group = [h for h, step in pending.items() if step.key == first]
            node = pending[group[0]].node
            failed_before = set(state.failed)
            results = await self._run_task(state, node, {h: pending[h] for h in group}, is_handler=True)
            if _flushes_handlers(node) and any(result.status != "skipped" for result in results.values()):
                raise UserError("flush_handlers cannot be used as a handler", SourcePosition.parse(node.position))
            for host in group:
                self._advance(state, host, walks[host], results[host], pending)
                if results[host].failed and not results[host].ignored:
                    failures.setdefault(host, HostFailed(node, results[host]))
            if self._fatal(state, node, results, state.failed - failed_before):
                # any_errors_fatal holds for handlers too: the play stops for every host, as in ansible-core
                state.stop_play = state.stopped_by_failure = True


def _shared_result(result: TaskResult, ran_on: str, host: str) -> TaskResult:
    """A run_once result as another host of the batch takes it: what it registered and the facts it set (unless
    they were delegated to another host) apply to that host too; hosts and groups it added were added once. An
    include is expanded for the host that ran it only: as in ansible-core, run_once on a dynamic include keeps
    its tasks to that host (``apply: {run_once: true}`` is what runs them once for all)."""

    def for_host(values: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return {host: values[ran_on]} if ran_on in values else {}

    return replace(result, vars=for_host(result.vars), include_vars=for_host(result.include_vars),
                   facts=for_host(result.facts), added_hosts=[], joined_groups=[], include=None)


def _flushes_handlers(node: PlanTask) -> bool:
    return node.kind == "meta" and (node.args.get("_raw_params") or node.args.get("free_form")) == "flush_handlers"


def _handler_answers(handlers: list[PlanTask], roles: list[PlanRole],
                     name_of: Callable[[PlanTask], str | None]) -> list[list[str]]:
    """The notifications each handler answers, in the play's order, as ansible-core matches them: every topic it
    listens to (a topic notifies every handler that listens to it), and those of its names (its own as ``name_of``
    renders it, and ``ROLE : NAME`` for a role's) that no handler found before it has. ansible-core looks a name up
    in the play's handler blocks last one first (a role's after the play's own, an included role's last), and in
    a block from its first handler: so a role's handler wins a name over the play's, and in one list the first."""
    owned: set[str] = set()
    names: dict[int, list[str]] = {}
    for group in reversed(_handler_groups(handlers)):
        for index in group:
            name = name_of(handlers[index])
            mine = [each for each in handler_names(handlers[index], roles, name) if each not in owned]
            owned.update(mine)
            names[index] = mine
    return [[*names[index], *handler_topics(handler, roles)] for index, handler in enumerate(handlers)]


def _handler_groups(handlers: list[PlanTask]) -> list[list[int]]:
    """The handlers' indexes grouped as ansible-core's handler blocks come: a run of handlers of one role (or of
    the play's own) is one block."""
    groups: list[list[int]] = []
    for index, handler in enumerate(handlers):
        if groups and handlers[groups[-1][-1]].role == handler.role:
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def _top_level(nodes: list[PlanTask]) -> list[int]:
    """The ids of nodes that no block of the same list contains: the included file's own task list."""
    children = {child for node in nodes for child in (*node.block, *node.rescue, *node.always)}
    return [node.id for node in nodes if node.id not in children]

