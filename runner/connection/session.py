"""One host for one run: its connection, opened on first use, and its agents (one per become-user)."""

from __future__ import annotations

import asyncio
import getpass
import logging
import shlex
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.agent import (
    DISCOVERY_FOUND,
    FALLBACK_INTERPRETERS,
    NO_PYTHON_EXIT,
    TERMINAL_TIMED_OUT,
    temp_dir_name,
    terminal_command,
    terminal_payload,
)
from runner.ansible_api.arguments import ModuleRunContext, module_args
from runner.ansible_api.legacy import legacy_call
from runner.ansible_api.profiles import encode_arguments
from runner.ansible_api.results import normalize_result
from runner.connection.agent_client import AgentClient, DiscoveredInterpreterFailed
from runner.connection.ansible_connection import AnsibleConnectionTransport
from runner.connection.become import BecomeFailure, explain_failure, needs_terminal, prompt_pattern, wrap
from runner.connection.keeper import keeper_in_use
from runner.connection.local import LocalTransport
from runner.connection.settings import BecomeSettings, ConnectionSettings
from runner.connection.ssh import SSHTransport
from runner.connection.transport import CommandResult, Transport
from runner.errors import FAILED_CAUSE, FAILED_IN, NO_TRACEBACK, ConnectionFailure
from runner.module_index import ModuleIndex
from runner.util.logging import DEBUG, DISPLAYED, VERBOSE, milliseconds, size
from runner.util.strict_utf8 import InvalidUtf8, check_decoded
from runner.util.task_trace import current_task
from runner.util.unsafe import DeprecatedText

__all__ = ["BecomeFailure", "HostSession"]

AGENT_START_TIMEOUT = 30.0
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Discovery:
    """What an agent's start found as its Python: the interpreter, how (``runner.agent``'s found, none or
    error) and the names it tried."""

    interpreter: str
    outcome: str
    tried: tuple[str, ...]


# Connection types this runner opens itself; any other is an Ansible connection plugin.
SSH_CONNECTIONS = frozenset({"ssh", "smart", "paramiko", "asyncssh"})


def make_transport(settings: ConnectionSettings, collections_paths: tuple[Path, ...] = ()) -> Transport:
    if settings.connection == "local":
        return LocalTransport()
    if settings.connection in SSH_CONNECTIONS:
        keeper = keeper_in_use()
        if keeper is not None:
            from runner.connection.keeper.transport import KeeperTransport

            return KeeperTransport(settings, keeper)
        return SSHTransport(settings)
    # any other: a connection plugin written against Ansible's API, for raw commands
    return AnsibleConnectionTransport(settings, collections_paths)


def _add_setup(started: float) -> None:
    """Count the time since ``started`` (opening the connection, starting an agent) in the timed host-task."""
    task = current_task.get()
    if task is not None:
        task.add_setup(time.perf_counter() - started)


def strict_response(result: dict[str, Any]) -> dict[str, Any]:
    """The response of a module that printed its own JSON (one written against Ansible's API, an old-style one)
    as it came, or the task's failure when a string of it is not valid UTF-8 and ``MODULE_STRICT_UTF8_RESPONSE``
    is on, in ansible-core's words. Native modules' results are the agent's own JSON, checked by their tests."""
    try:
        return check_decoded(result)
    except InvalidUtf8 as exc:
        return {"failed": True, "changed": False, "msg": f"Task failed: {exc}", "exception": NO_TRACEBACK,
                FAILED_IN: "task", FAILED_CAUSE: f"{exc} {exc.help_text}"}


class HostSession:
    """The executor's handle on one host. Failures to reach it raise ``ConnectionFailure`` (UNREACHABLE)."""

    def __init__(self, settings: ConnectionSettings, index: ModuleIndex):
        self.settings = settings
        self.index = index
        self.transport: Transport | None = None
        self.agents: dict[str, AgentClient] = {}
        self._agent_users: dict[str, str] = {}  # the user each become agent runs as, by its key
        self._connect_lock = asyncio.Lock()
        self._agent_locks: dict[str, asyncio.Lock] = {}

    async def _transport(self) -> Transport:
        async with self._connect_lock:
            if self.transport is not None and self.transport.is_closed():
                self.transport = None  # the connection dropped: open a new one, as for the first task
                self.agents.clear()
            if self.transport is None:
                started = time.perf_counter()
                transport = make_transport(self.settings, tuple(self.index.collections_paths))
                if isinstance(transport, LocalTransport) and _log.isEnabledFor(VERBOSE):
                    _log.info("<%s> ESTABLISH LOCAL CONNECTION FOR USER: %s", self.settings.address,
                              getpass.getuser(), extra=DISPLAYED)
                await transport.connect()
                self.transport = transport
                _add_setup(started)
            return self.transport

    def discovery(self, become: BecomeSettings | None = None) -> Discovery | None:
        """How the agent for ``become`` found its Python when no ansible_python_interpreter names one (Ansible's
        interpreter discovery, done by the agent's start command); None when one is configured or no agent
        runs."""
        client = self.agents.get(become.key if become else "-")
        if self.settings.interpreter is not None or client is None:
            return None
        executable = client.info.get("discovered") or client.info.get("executable")
        if not executable:
            return None
        return Discovery(str(executable), str(client.info.get("discovery") or DISCOVERY_FOUND),
                         self.settings.interpreter_fallback or FALLBACK_INTERPRETERS)

    async def agent(self, become: BecomeSettings | None = None) -> AgentClient:
        key = become.key if become else "-"
        client = self.agents.get(key)
        if client is not None and not client.dead:
            return client
        lock = self._agent_locks.setdefault(key, asyncio.Lock())
        async with lock:
            if key not in self.agents or self.agents[key].dead:
                # An agent that died (the host rebooted, someone killed it) is replaced by a new one.
                if self.settings.interpreter is None:  # the start command discovers it, as Ansible would now
                    _log.info("<%s> Attempting python interpreter discovery.", self.settings.name)
                transport = await self._transport()
                started = time.perf_counter()
                # Starting an agent runs the user's login shell and a Python interpreter on the host: on a busy
                # host that takes longer than opening the connection, so it gets more time than the connection.
                self.agents[key] = await self._start_agent(transport, become)
                if become is not None:
                    self._agent_users[key] = become.user
                _add_setup(started)
            return self.agents[key]

    async def _start_agent(self, transport: Transport, become: BecomeSettings | None) -> AgentClient:
        """The agent, started with the configured interpreter or the one discovery finds. A discovered one that
        does not start (a version manager's shim for a version it has not selected) gives way to the next the
        probe found, each tried once, where ansible-core would fail the task."""
        fallback = self.settings.interpreter_fallback
        # The agent's temporary directory, named here as ansible-core names the one it makes for a task
        tmpdir = f"{self.settings.remote_tmp.rstrip('/') or '/'}/{temp_dir_name()}"
        while True:
            try:
                return await AgentClient.start(
                    transport, self.settings.name, self.settings.interpreter, become,
                    max(self.settings.timeout, AGENT_START_TIMEOUT), address=self.settings.address, fallback=fallback,
                    tmpdir=tmpdir)
            except DiscoveredInterpreterFailed as exc:
                _log.info("<%s> %s; trying %s", self.settings.name, exc, exc.others[0])
                fallback = tuple(dict.fromkeys(exc.others))  # each once: names found twice (python3) or more

    async def connection_plugin(self) -> Any:
        """The Ansible connection plugin the host is reached through (loaded, not yet connected), or None when
        this runner connects itself (ssh, local): what the plugin says of the host, such as its shell."""
        if self.settings.connection == "local" or self.settings.connection in SSH_CONNECTIONS:
            return None
        transport = await self._transport()
        return transport.plugin if isinstance(transport, AnsibleConnectionTransport) else None

    async def run_module(self, name: str, params: dict[str, Any], *, check: bool = False, diff: bool = False,
                         become: BecomeSettings | None = None, environment: dict[str, Any] | None = None,
                         background: int | None = None, async_dir: str | None = None, no_log: bool = False,
                         verbosity: int = 0, rlimit_nofile: int | None = None,
                         async_job: bool = False, debugger: dict[str, Any] | None = None,
                         legacy_interpreter: str | None = None, remote_tmp: str | None = None,
                         tmpdir: str | None = None) -> dict[str, Any]:
        """Run module ``name`` on the host's agent. ``no_log`` and ``verbosity`` are given to a module written
        against Ansible's API (native modules' results are masked on the controller). ``async_job``: an async
        task waited for (see AgentClient.run_module). ``legacy_interpreter``: what runs a module file's ``#!``
        line instead of its program (the task's ``ansible_<name>_interpreter``). ``remote_tmp``: where the
        module makes its own temporary directory (the task's ansible_remote_tmp; the connection's when None);
        ``tmpdir``: the task's temporary directory on the host, which the module uses instead (``_ansible_tmpdir``,
        an Ansible action plugin's)."""
        remote_tmp = remote_tmp or self.settings.remote_tmp
        info = self.index.get(name)
        if info.ansible_api:
            if background is not None:
                return {"failed": True, "changed": False,
                        "msg": f"'{name}' is an Ansible-API module, which cannot be started in the background "
                               "(async with poll: 0) yet; give it a poll interval to wait for it"}
            packed = self.index.packed(info)
            context = ModuleRunContext(name, check=check, diff=diff, no_log=no_log, verbosity=verbosity,
                                       remote_tmp=remote_tmp, tmpdir=tmpdir)
            client = await self.agent(become)
            if _log.isEnabledFor(VERBOSE):
                _log.info("Using module file %s (Ansible API, %s packed)", info.path, size(len(packed.source)),
                          extra=DISPLAYED)
            arguments = encode_arguments(module_args(params, context), packed.profile)
            result = await client.run_ansible_module(packed, arguments, environment=environment,
                                                     async_job=async_job, async_dir=async_dir,
                                                     rlimit_nofile=rlimit_nofile, debugger=debugger)
            return strict_response(normalize_result(result, DeprecatedText))
        legacy = info.legacy_style
        if legacy:
            context = ModuleRunContext(name, check=check, diff=diff, no_log=no_log, verbosity=verbosity,
                                       remote_tmp=remote_tmp, tmpdir=tmpdir)
            call = legacy_call(legacy, info.path.name, info.source.source, params, context, legacy_interpreter)
            if isinstance(call, str):
                return {"failed": True, "changed": False, "msg": call}
            params, info = call, self.index.legacy_runner()
        client = await self.agent(become)
        if _log.isEnabledFor(VERBOSE):
            _log.info("Using module file %s", info.path, extra=DISPLAYED)
        # Dates and times (YAML's, or a template's) reach our modules as Ansible's legacy profile sends them: text
        params = encode_arguments(params, "legacy")
        result = await client.run_module(self.index.sources_for(info), params, check=check, diff=diff,
                                         environment=environment, background=background, async_dir=async_dir,
                                         rlimit_nofile=rlimit_nofile, async_job=async_job, debugger=debugger,
                                         remote_tmp=remote_tmp, tmpdir=tmpdir)
        return strict_response(result) if legacy else result

    async def raw(self, command: str, *, become: BecomeSettings | None = None, timeout: float | None = None,
                  executable: str | None = None, stdin: bytes | None = None) -> CommandResult:
        """Run ``command`` on a plain exec channel: no agent, no Python needed on the host. ``stdin`` is fed to
        the command (after the become password, which the escalation reads first)."""
        transport = await self._transport()
        if executable:
            command = f"{executable} -c {shlex.quote(command)}"
        started = time.perf_counter()
        if isinstance(transport, AnsibleConnectionTransport):
            transport.become = become  # the plugin sees the task's become as under ansible-core
        if become is None:
            return self._traced_raw(await transport.run(command, stdin=stdin, timeout=timeout), started)
        if needs_terminal(become):
            return await self._raw_on_terminal(transport, command, become, timeout, started, stdin)
        wrapped, marker, prompt = wrap(command, become)
        if become.password:
            stdin = (become.password + "\n").encode() + (stdin or b"")
        result = self._traced_raw(await transport.run(wrapped, stdin=stdin, timeout=timeout), started)
        prefix = (marker + "\n").encode()
        if result.stdout.startswith(prefix):
            result.stdout = result.stdout[len(prefix):]
        elif result.rc != 0:
            raise BecomeFailure(explain_failure(result.stderr.decode(errors="replace"), become))
        result.stderr = result.stderr.replace(prompt.encode(), b"", 1)
        return result

    async def _raw_on_terminal(self, transport: Transport, command: str, become: BecomeSettings,
                               timeout: float | None, started: float, stdin: bytes | None) -> CommandResult:
        """``command`` escalated by a method that asks on a terminal (su with a password): run on a pseudo-terminal
        of the host, which answers the prompt, as Ansible runs it. Its output is the terminal's: stdout and stderr
        together. No prompt in the connection timeout makes the host unreachable, as in Ansible. ``stdin`` reaches
        the command on a pipe of its own (fd 3 made its stdin): su reads the password on the terminal."""
        assert become.password is not None
        if stdin is not None:
            command = f"exec 0<&3 3<&-; {command}"
        wrapped, marker, _ = wrap(command, become, on_terminal=True)
        run = terminal_command(self.settings.interpreter, prompt_pattern(become), self.settings.timeout, wrapped,
                               feeds_input=stdin is not None)
        payload = terminal_payload(become.password) + (stdin or b"")
        result = self._traced_raw(await transport.run(run, stdin=payload, timeout=timeout), started)
        if result.rc == TERMINAL_TIMED_OUT:
            raise ConnectionFailure(result.stderr.decode(errors="replace").strip())
        if result.rc == NO_PYTHON_EXIT and not result.stdout:
            raise BecomeFailure(f"{become.method} with a password runs on a terminal that Python on the host makes, "
                                f"and there is none ({self.settings.interpreter or 'python3'}): set "
                                "ansible_python_interpreter, or use become_method: sudo")
        said = result.stdout.decode(errors="replace")
        at = said.find(marker)
        if at < 0:
            raise BecomeFailure(explain_failure(said + result.stderr.decode(errors="replace"), become))
        result.stdout = said[at + len(marker):].removeprefix("\n").encode()
        return result

    def _traced_raw(self, result: CommandResult, started: float) -> CommandResult:
        """``result``, traced at -vvvv: its exit code and sizes, never the command or its output (a no_log task's
        arguments are in them)."""
        if _log.isEnabledFor(DEBUG):
            seconds = time.perf_counter() - started
            task = current_task.get()
            if task is not None:
                task.add_exchange(seconds)
            _log.debug("<%s> RAW exec channel: rc=%d, stdout %s, stderr %s in %s%s", self.settings.address,
                       result.rc, size(len(result.stdout)), size(len(result.stderr)), milliseconds(seconds),
                       f" ({task.task})" if task is not None else "")
        return result

    async def put(self, data: bytes | Path, remote_path: str, *, mode: int | None = None,
                  become: BecomeSettings | None = None, temporary: bool = False) -> dict[str, Any]:
        return await (await self.agent(become)).put(data, remote_path, mode, temporary=temporary)

    async def end_agents_of(self, user: str) -> None:
        """End the agents running as ``user`` on this host: a task is about to remove that user, which a running
        process of the user (a persistent agent, where Ansible's modules have exited) would keep "in use"."""
        for key in [key for key in self.agents if self._agent_users.get(key) == user]:
            await self.agents.pop(key).end()

    async def fetch(self, remote_path: str, *, become: BecomeSettings | None = None) -> tuple[dict[str, Any], bytes]:
        return await (await self.agent(become)).fetch(remote_path)

    async def close(self) -> None:
        if _log.isEnabledFor(DEBUG) and self.transport is not None:
            _log.debug("<%s> CLOSE connection and %d agent%s", self.settings.address, len(self.agents),
                       "" if len(self.agents) == 1 else "s")
        if self.transport is not None and self.transport.close_ends_processes:
            # Each agent reads its exit request, then the end of its stdin when the connection closes, and
            # cleans up on its own: waiting for every agent to report its exit would add a round trip per host
            # to the end of every run.
            for agent in self.agents.values():
                agent.release()
        else:
            await asyncio.gather(*(agent.close() for agent in self.agents.values()), return_exceptions=True)
        self.agents.clear()
        if self.transport is not None:
            await self.transport.close()
            self.transport = None

    def abort(self) -> None:
        """Interrupted: stop every agent at once (each ends the processes it started and removes temp files)."""
        for agent in self.agents.values():
            agent.abort()
