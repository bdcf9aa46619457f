"""What a controller-side action receives, and what an action is.

An action runs on the controller instead of (or around) the module's agent call: ``debug`` and ``set_fact``
read and change the run's state only, ``raw`` needs no Python on the host, ``copy`` reads files on the
controller and sends them over the host's connection. The same context serves playbook tasks and ad-hoc
commands: the task's host, arguments and flags, its variables and templar, the run state it may change
(``runner.actions.run_state``) and, for actions that use the host, the host's session.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.errors import UserError

if TYPE_CHECKING:
    from runner.actions.run_state import RunState
    from runner.connection import BecomeSettings, HostSession
    from runner.module_index import ModuleInfo
    from runner.templating import Templar


@dataclass
class ActionContext:
    host: str
    module: ModuleInfo
    args: dict[str, Any]  # the task's arguments, already templated
    state: RunState
    templar: Templar  # over the task's variables: for conditions (assert) and expressions (debug var=)
    connection: HostSession | None = None  # None for an action registered with uses_host=False
    check: bool = False
    diff: bool = False
    verbosity: int = 0
    become: BecomeSettings | None = None
    environment: dict[str, Any] | None = None
    no_log: bool = False  # told to a module written against Ansible's API, which masks its own output
    search_paths: list[Path] = field(default_factory=list)  # role dir, playbook dir, cwd: where a relative src is
    task_vars: Mapping[str, Any] = field(default_factory=dict)
    collections: list[str] = field(default_factory=list)  # the task's collection search list (ansible-core's)
    async_seconds: int = 0  # the task's async limit, when it is waited for (its poll is not 0)
    remote_tmp: str | None = None  # where modules' temporary directories go (ansible_remote_tmp); the session's

    @property
    def session(self) -> HostSession:
        """The host's session, to run modules and put, fetch or run files on the host."""
        if self.connection is None:
            raise RuntimeError(f"the {self.module.name} action is registered as not using the host, "
                               "yet asked for its session")
        return self.connection

    async def run_module(self, name: str | None = None, args: dict[str, Any] | None = None, *,
                         tmpdir: str | None = None) -> dict[str, Any]:
        """Run a module on the host through its agent, with this task's check/diff/become/environment;
        ``tmpdir``: the task's temporary directory on the host (an Ansible action plugin's), the module's to use."""
        return await self.session.run_module(name or self.module.name, self.args if args is None else args,
                                             check=self.check, diff=self.diff, become=self.become,
                                             environment=self.environment, no_log=self.no_log,
                                             remote_tmp=self.remote_tmp, tmpdir=tmpdir)

    def candidates(self, relative: str, subdir: str) -> list[Path]:
        """Where a controller file named by a task may be: ``<path>/<subdir>/<relative>``, then
        ``<path>/<relative>``, for each search path in order (as Ansible looks in a role's files/ or vars/
        before the playbook's directory); an absolute path only where it says."""
        wanted = Path(relative).expanduser()
        if wanted.is_absolute():
            return [wanted]
        return [candidate for base in self.search_paths for candidate in (base / subdir / wanted, base / wanted)]

    def find_file(self, relative: str, subdir: str = "files") -> Path:
        """The first of ``candidates`` that exists, or a ``UserError`` naming every place searched."""
        candidates = self.candidates(relative, subdir)
        for candidate in candidates:
            if candidate.exists():
                return candidate
        searched = ", ".join(str(c) for c in candidates) or "no search path given"
        raise UserError(f"Could not find or access '{relative}' on the controller (searched: {searched})")


ActionRun = Callable[[ActionContext], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Action:
    """A controller-side action as the registry (``runner.actions.ACTIONS``) holds it.

    ``run`` returns the task's result (``failed: True`` and a ``msg`` for a failure it expects; raising
    ``ActionFailed`` does the same). ``uses_host``: whether it works on the host; one that does not (debug,
    set_fact ...) is never given a session, so it runs even for a host that cannot be reached, and ignores
    ``delegate_to``, ``async`` and ``timeout`` as before. ``playbook_only``: why an ad-hoc command refuses it,
    for the few actions that only steer a playbook's run. ``supports_async``: see below. ``expressions``: the
    arguments it evaluates as expressions itself (``assert``'s ``that``, ``debug``'s ``var``), given to it as
    written rather than rendered first, as Ansible does: an expression is judged by where its text came from, and
    rendering would make any text a template's.
    """

    run: ActionRun
    uses_host: bool = True
    playbook_only: str | None = None
    # Whether the ``async`` keyword may be given to it: not for Ansible's own controller-side actions (copy,
    # script, fetch ...), whose task then fails in Ansible's words; a collection's action plugin decides itself.
    supports_async: bool = False
    expressions: tuple[str, ...] = ()
    # Whether its arguments' values become variables (set_fact): a value a template made is then untrusted text
    # (``UnsafeText``), never rendered again, as Ansible 2.19 trusts as a template only text written as such.
    arguments_become_variables: bool = False
