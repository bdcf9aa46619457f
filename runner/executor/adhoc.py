"""Ad-hoc runs: one module on every host a pattern selects, through the persistent workers.

This is the library API behind ``provisioning PATTERN -m MODULE -a ARGS``; tests and other programs call
``run_adhoc`` directly. Controller-side actions run here through the same context as in a playbook (debug,
set_fact, assert, add_host ... with a run state that keeps nothing, as no task follows), except the few that
only steer a playbook's run, which are refused before anything starts.
"""

from __future__ import annotations

import asyncio
from collections import ChainMap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.actions.run_state import DetachedRunState
from runner.connection import ConnectionSettings, HostSession
from runner.errors import OptionError
from runner.executor.connection_vars import BadConnectionVariable, SettingsCache
from runner.executor.executor_choice import ExecutorChoice, start_workers
from runner.executor.module_call import (
    DEFAULT_POLL_INTERVAL,
    ModuleCall,
    async_dir,
    async_limits,
    controller_action,
    execute,
    execute_within,
)
from runner.executor.outcome import exit_code_for, run_with_workers
from runner.executor.placement import SHARD_VARIABLE
from runner.executor.variables import pick_connection_vars
from runner.module_index import ModuleIndex
from runner.templating.omit import OMIT
from runner.util import task_trace

if TYPE_CHECKING:
    from runner.templating import Templar


@dataclass
class AdhocRun:
    """Everything one ad-hoc run needs; host variables come from ``host_vars`` (the inventory's lookup)."""

    hosts: list[str]
    module: str
    args: dict[str, Any]
    host_vars: Callable[[str], Mapping[str, Any]]
    defaults: ConnectionSettings
    forks: int = 5
    check: bool = False
    diff: bool = False
    extra_vars: dict[str, Any] = field(default_factory=dict)
    magic_vars: dict[str, Any] = field(default_factory=dict)  # run-wide ones (runner.cli.run_magic)
    library: list[Path] = field(default_factory=list)
    collections_path: list[Path] = field(default_factory=list)
    search_paths: list[Path] = field(default_factory=lambda: [Path.cwd()])
    background: int | None = None  # -B: run asynchronously, failing after this many seconds
    poll: int = DEFAULT_POLL_INTERVAL  # -P: with -B, 0 starts a background job and does not wait
    timeout: int | None = None  # --task-timeout: the module fails on a host after this many seconds
    verbosity: int = 0  # -v: what debug's verbosity argument is compared with
    executor: ExecutorChoice = field(default_factory=ExecutorChoice)  # where the workers run


@dataclass
class Summary:
    """Per-host outcome counts, and the exit code Ansible would give for them."""

    ok: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    unreachable: list[str] = field(default_factory=list)
    stopped_by: int | None = None  # the signal that stopped the run (Ctrl-C, SIGTERM, SIGHUP)

    def record(self, host: str, result: Mapping[str, Any]) -> None:
        if result.get("unreachable"):
            self.unreachable.append(host)
        elif result.get("failed"):
            self.failed.append(host)
        elif result.get("changed"):
            self.changed.append(host)
        else:
            self.ok.append(host)

    @property
    def exit_code(self) -> int:
        return exit_code_for(stopped_by=self.stopped_by, unreachable=bool(self.unreachable),
                             failed=bool(self.failed))


class AdhocContext:
    """The worker side of an ad-hoc run: template the arguments per host, connect, run the module."""

    def __init__(self, run: AdhocRun):
        self.run = run
        self.index = ModuleIndex(run.library, collections_paths=run.collections_path)
        self.sessions: dict[str, HostSession] = {}
        self.settings = SettingsCache()

    def _variables(self, host: str) -> Mapping[str, Any]:
        # Read only: ChainMap's stubs want every map mutable, though writes only ever go to the first.
        layers: list[Any] = [self.run.magic_vars, {"omit": OMIT}, self.run.extra_vars, self.run.host_vars(host)]
        return ChainMap(*layers)

    async def handle(self, host: str, payload: Any) -> dict[str, Any]:
        if not task_trace.tracing_tasks():
            return await self._run_module(host)
        from runner.executor.task_result import status_of  # only for the -vvvv trace

        trace = task_trace.begin(host, f"module '{self.run.module}'")
        result = await self._run_module(host)
        trace.work_done()
        trace.finish(status_of(result))
        return result

    async def _run_module(self, host: str) -> dict[str, Any]:
        from runner.templating import Templar, TemplateError, drop_omitted

        variables = self._variables(host)
        # Lookups in the arguments find files where Ansible's ad-hoc loader does: in --playbook-dir, else here.
        templar = Templar(variables, search_paths=self.run.search_paths)
        action = controller_action(self.index, self.run.module)
        if action is not None and not action.uses_host:
            # debug, set_fact, assert ...: nothing to connect to, so a host that cannot be reached still answers.
            try:
                args = drop_omitted(templar.template(self.run.args))
            except TemplateError as exc:
                return {"failed": True, "changed": False, "msg": f"template error in module arguments: {exc}"}
            return await execute(None, self.index, self._call(host, args, templar, variables))
        try:
            settings = self.settings.get(host, pick_connection_vars(variables), self.run.defaults,
                                         lambda values: templar.template(dict(values)))
        except TemplateError as exc:
            return {"failed": True, "changed": False, "msg": f"template error in connection variables: {exc}"}
        except BadConnectionVariable as exc:
            return {"failed": True, "changed": False, "msg": str(exc)}
        session = self.sessions.get(host)
        if session is None:
            session = self.sessions[host] = HostSession(settings, self.index)
        try:
            args = drop_omitted(templar.template(self.run.args))
        except TemplateError as exc:
            return {"failed": True, "changed": False, "msg": f"template error in module arguments: {exc}"}
        limit, background = async_limits(self.run.background, self.run.poll)
        call = self._call(host, args, templar, variables)
        call.become = settings.become_settings()
        call.background = background
        call.async_dir = async_dir(templar, variables)
        return await execute_within(session, self.index, call, timeout=self.run.timeout, async_limit=limit)

    def _call(self, host: str, args: dict[str, Any], templar: Templar, variables: Mapping[str, Any]) -> ModuleCall:
        return ModuleCall(self.run.module, args, host=host, state=DetachedRunState(), templar=templar,
                          check=self.run.check, diff=self.run.diff, verbosity=self.run.verbosity,
                          search_paths=self.run.search_paths, task_vars=variables)

    def update(self, message: Any) -> None:
        return None

    async def close(self) -> None:
        await asyncio.gather(*(session.close() for session in self.sessions.values()), return_exceptions=True)

    def abort(self) -> None:
        for session in self.sessions.values():
            session.abort()


def run_adhoc(run: AdhocRun, on_result: Callable[[str, dict[str, Any]], None],
              on_start: Callable[[], None] | None = None) -> Summary:
    """Run the module on every host (results reported as they arrive) and return the summary. ``on_start`` is
    called once the workers have forked, before the first host starts.

    Ctrl-C, SIGTERM or SIGHUP stops the run: the workers stop their agents (remote processes end, temp files go)
    and the summary says which signal stopped it (exit code 99, 143 or 129).
    """
    refuse_in_adhoc(ModuleIndex(run.library, collections_paths=run.collections_path), run.module)
    summary = Summary()
    if not run.hosts:
        return summary
    # What the workers use (the template environment for the arguments, the controller-side actions such as
    # copy) is loaded here once, before they fork, so they share it rather than each loading it; not at this
    # module's import, so that ``provisioning --help`` and option errors answer without it.
    from runner import actions  # noqa: F401
    from runner.templating import get_environment

    get_environment()

    def shard_of(host: str) -> str | None:
        shard = run.host_vars(host).get(SHARD_VARIABLE)
        return str(shard) if shard not in (None, "") else None

    pool = start_workers(run.executor, run.hosts, run.forks, AdhocContext(run), shard_of=shard_of)
    if on_start is not None:
        on_start()

    async def one(host: str) -> None:
        result = await pool.run(host, None)
        summary.record(host, result)
        on_result(host, result)

    async def everything() -> None:
        await asyncio.gather(*(one(host) for host in run.hosts))

    summary.stopped_by = run_with_workers(pool, everything)
    return summary


def refuse_in_adhoc(index: ModuleIndex, module: str) -> None:
    """An ``OptionError`` for a module whose controller-side action only makes sense inside a playbook."""
    action = controller_action(index, module)
    if action is not None and action.playbook_only:
        raise OptionError(f"'{index.canonical(module)}' is not a valid action for ad-hoc commands: "
                          f"{action.playbook_only}")
