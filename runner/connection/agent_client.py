"""The controller's side of the agent protocol: start the agent, send modules once, one frame per task."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any

from runner.agent import (
    ALSO_FOUND_MARK,
    FALLBACK_INTERPRETER,
    FALLBACK_INTERPRETERS,
    FRAME_HEADER,
    NO_PYTHON_MARK,
    agent_payload,
    start_command,
    terminal_command,
    terminal_payload,
)
from runner.connection.become import (
    RAW_TERMINAL,
    BecomeFailure,
    explain_failure,
    needs_terminal,
    prompt_pattern,
    wrap,
)
from runner.connection.settings import BecomeSettings
from runner.connection.transport import RemoteProcess, Transport, TransportLost
from runner.errors import ConnectionFailure
from runner.module_index import ModuleSource
from runner.util.logging import DEBUG, DISPLAYED, VERBOSE, milliseconds, size
from runner.util.task_trace import current_task

PUT_CHUNK = 1 << 18
_log = logging.getLogger(__name__)


class DiscoveredInterpreterFailed(ConnectionFailure):
    """The interpreter discovery found did not start, and the probe found others: the next may."""

    def __init__(self, message: str, others: tuple[str, ...]):
        super().__init__(message)
        self.others = others


class InterpreterNotFound(Exception):
    """The configured Python interpreter (ansible_python_interpreter) is not on the host: as in ansible-core, the
    task fails (the host was reached) rather than the host being unreachable."""


def encode_frame(header: dict[str, Any], body: bytes = b"") -> bytes:
    data = json.dumps(header, separators=(",", ":")).encode()
    return FRAME_HEADER.pack(len(data), len(body)) + data + body


def _file_chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as handle:
        while chunk := handle.read(PUT_CHUNK):
            yield chunk


class AgentClient:
    """One running agent on one host, for one user. Requests are answered strictly in order."""

    def __init__(self, host: str, process: RemoteProcess, address: str | None = None):
        self.host = host
        self.address = address or host  # how the trace names the host, as the connection does
        self.process = process
        self.loaded: dict[str, str] = {}  # module name -> hash of the source the agent holds
        self.stderr_tail: collections.deque[bytes] = collections.deque(maxlen=32)
        self._stderr_task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.dead = False
        self.info: dict[str, Any] = {}
        # The current exchange's frames, kept only while the -vvvv trace is on: (kind, bytes) sent, and the
        # count and bytes of the frames received.
        self._tracing = False
        self._sent: list[tuple[str, int]] = []
        self._received = [0, 0]

    # -- start ---------------------------------------------------------------------------------------------
    @classmethod
    async def start(cls, transport: Transport, host: str, interpreter: str | None,
                    become: BecomeSettings | None, timeout: float, *, address: str | None = None,
                    fallback: tuple[str, ...] | None = None, tmpdir: str | None = None) -> AgentClient:
        """The agent on ``host``, started with ``interpreter``, else with the one discovery finds over the names
        in ``fallback`` (Ansible's list when None), its temporary directory ``tmpdir`` (see start_command)."""
        command = start_command(interpreter, fallback, tmpdir)
        marker = prompt = ""
        if become is not None and needs_terminal(become):
            # su with a password: on a pseudo-terminal of the host, switched to raw mode for the agent's frames
            # (its stderr would mix with them there, so it goes)
            command, marker, _ = wrap(f"{command} 2>/dev/null", become, on_terminal=True, before_marker=RAW_TERMINAL)
            command = terminal_command(interpreter, prompt_pattern(become), timeout, command, marker)
        elif become is not None:
            command, marker, prompt = wrap(command, become)
        started = time.perf_counter()
        if _log.isEnabledFor(VERBOSE):
            # the command that starts the agent, as Ansible's -vvv EXEC line shows each command it runs (no secret
            # is in it: a password goes on stdin)
            _log.info("<%s> EXEC %s", address or host, command, extra=DISPLAYED)
        process = await transport.start_agent(command, become)
        if process.adopted:
            adopted = await cls._adopt(process, host, address, timeout)
            if adopted is not None:
                return adopted
            # The kept agent did not answer (its host restarted, its connection died unnoticed): start afresh on
            # a new connection, as the first run did.
            await transport.reset()
            process = await transport.start_agent(command, become, fresh=True)
        client = cls(host, process, address)
        try:
            await asyncio.wait_for(client._handshake(become, marker, prompt, interpreter, fallback), timeout)
        except TimeoutError:
            process.terminate()
            if become is not None:
                raise BecomeFailure(f"timed out waiting for privilege escalation prompt or success "
                                    f"({become.method} to {become.user})") from None
            raise ConnectionFailure(f"timed out starting the agent on {host}") from None
        if _log.isEnabledFor(DEBUG):
            info = client.info
            version = ".".join(str(part) for part in info.get("python") or ()) or "?"
            user = become.user if become is not None else "the login user"
            _log.debug("<%s> AGENT started in %s: Python %s at %s, pid %s, uid %s, as %s", client.address,
                       milliseconds(time.perf_counter() - started), version, info.get("executable", "?"),
                       info.get("pid", "?"), info.get("uid", "?"), user)
        return client

    @classmethod
    async def _adopt(cls, process: RemoteProcess, host: str, address: str | None, timeout: float
                     ) -> AgentClient | None:
        """An agent already running (lent by the keeper), checked with a ``hello``; None when it does not answer."""
        client = cls(host, process, address)
        client.loaded = dict(process.loaded)
        client._stderr_task = asyncio.ensure_future(client._drain_stderr())
        try:
            client.info = await asyncio.wait_for(client.request({"op": "hello"}), timeout)
        except (ConnectionFailure, TimeoutError):
            client.abort()
            return None
        if _log.isEnabledFor(DEBUG):
            _log.debug("<%s> AGENT reused from the connection keeper: pid %s, uid %s, %d module%s loaded",
                       client.address, client.info.get("pid", "?"), client.info.get("uid", "?"),
                       len(client.loaded), "" if len(client.loaded) == 1 else "s")
        return client

    async def _handshake(self, become: BecomeSettings | None, marker: str, prompt: str,
                         interpreter: str | None, fallback: tuple[str, ...] | None) -> None:
        if become is not None and needs_terminal(become):
            assert become.password is not None
            self.process.write(terminal_payload(become.password))  # the terminal types it at su's prompt
            await self._expect_marker(become, marker)
            self.process.write(agent_payload() + encode_frame({"op": "hello"}))
        elif become is not None and become.password:
            await self._answer_password(become, marker, prompt)
            self.process.write(agent_payload() + encode_frame({"op": "hello"}))
        else:
            self.process.write(agent_payload() + encode_frame({"op": "hello"}))
            if become is not None:
                await self._expect_marker(become, marker)
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())
        try:
            self.info = await self._receive()
        except TransportLost:
            raise  # the connection broke: nothing the agent or become said
        except ConnectionFailure as exc:
            raise self._start_failure(become, interpreter, fallback) from exc

    async def _answer_password(self, become: BecomeSettings, marker: str, prompt: str) -> None:
        """Answer the password prompt, unless escalation succeeds without one (sudo remembers a recent
        authentication); a second prompt means the password was wrong."""
        marker_task = asyncio.ensure_future(self._expect_marker(become, marker))
        prompt_task = asyncio.ensure_future(self._wait_for_text(prompt.encode()))
        done, _ = await asyncio.wait({marker_task, prompt_task}, return_when=asyncio.FIRST_COMPLETED)
        if marker_task in done:
            prompt_task.cancel()
            marker_task.result()
            return
        if prompt.encode() not in prompt_task.result():
            marker_task.cancel()
            raise BecomeFailure(explain_failure(b"".join(self.stderr_tail).decode(errors="replace"), become))
        self.process.write(become.password.encode() + b"\n")  # type: ignore[union-attr]
        await self.process.drain()
        reprompt_task = asyncio.ensure_future(self._wait_for_text(prompt.encode()))
        done, pending = await asyncio.wait({marker_task, reprompt_task}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if reprompt_task in done and not marker_task.done():
            self.process.terminate()
            raise BecomeFailure(f"Incorrect {become.method} password")
        marker_task.result()

    async def _wait_for_text(self, text: bytes) -> bytes:
        seen = b""
        while text not in seen:
            chunk = await self.process.read_stderr()
            if not chunk:
                return seen
            seen += chunk
            self.stderr_tail.append(chunk)
        return seen

    async def _expect_marker(self, become: BecomeSettings, marker: str) -> None:
        expected = (marker + "\n").encode()
        try:
            line = await self.process.read_exactly(len(expected))
        except EOFError:
            stderr = await self._read_remaining_stderr()
            raise BecomeFailure(explain_failure(stderr, become)) from None
        if line != expected:
            raise BecomeFailure(f"unexpected output while starting {become.method}: {line!r}")

    async def _read_remaining_stderr(self) -> str:
        chunks = list(self.stderr_tail)
        try:
            while True:
                chunk = await asyncio.wait_for(self.process.read_stderr(), 2)
                if not chunk:
                    break
                chunks.append(chunk)
        except TimeoutError:
            pass
        return b"".join(chunks).decode(errors="replace")

    def _start_failure(self, become: BecomeSettings | None, interpreter: str | None,
                       fallback: tuple[str, ...] | None = None) -> Exception:
        lines = b"".join(self.stderr_tail).decode(errors="replace").splitlines(keepends=True)
        others = tuple(line[len(ALSO_FOUND_MARK):].rstrip("\n") for line in lines if line.startswith(ALSO_FOUND_MARK))
        stderr = "".join(line for line in lines if not line.startswith(ALSO_FOUND_MARK))
        if others and interpreter is None and NO_PYTHON_MARK not in stderr:
            return DiscoveredInterpreterFailed(
                f"the discovered Python on {self.host} did not start: {stderr.strip() or 'no output'}", others)
        if NO_PYTHON_MARK in stderr and interpreter:
            return InterpreterNotFound(f"The module interpreter '{interpreter}' was not found.")
        if NO_PYTHON_MARK in stderr:
            return ConnectionFailure(
                f"no Python interpreter found on {self.host} (tried {', '.join(fallback or FALLBACK_INTERPRETERS)}, "
                f"then {FALLBACK_INTERPRETER}): install python3, "
                "set ansible_python_interpreter, or use the raw module, which needs none")
        if become is not None:
            return BecomeFailure(explain_failure(stderr, become))
        return ConnectionFailure(f"the agent on {self.host} did not start: {stderr.strip() or 'no output'}")

    async def _drain_stderr(self) -> None:
        # Modules print to stderr (the agent moves their stdout there); keep the tail for error messages
        # and keep reading so a chatty module can never fill the channel and stall.
        while True:
            chunk = await self.process.read_stderr(1 << 16)
            if not chunk:
                return
            self.stderr_tail.append(chunk)

    # -- frames --------------------------------------------------------------------------------------------
    async def _receive_frame(self) -> tuple[dict[str, Any], bytes]:
        try:
            head = await self.process.read_exactly(FRAME_HEADER.size)
            header_len, body_len = FRAME_HEADER.unpack(head)
            header = json.loads(await self.process.read_exactly(header_len))
            body = await self.process.read_exactly(body_len) if body_len else b""
            if self._tracing:
                self._received[0] += 1
                self._received[1] += FRAME_HEADER.size + header_len + body_len
        except EOFError:
            await asyncio.sleep(0.05)  # let the stderr reader catch the agent's last words
            tail = b"".join(self.stderr_tail).decode(errors="replace").strip()
            raise ConnectionFailure(f"the agent on {self.host} ended unexpectedly"
                                    + (f": {tail[-2000:]}" if tail else "")) from None
        return header, body

    @contextlib.asynccontextmanager
    async def _exchange(self) -> AsyncIterator[None]:
        """One request and its reply, alone on the channel; a broken channel makes the agent ``dead`` and the
        host unreachable (``ConnectionFailure``), never a raw OS error. A request given up before its reply (a
        task's ``timeout``) stops the agent, with the module and what it started: its reply could never be told
        from the next request's. The host's next task starts a new agent."""
        if self.dead:
            raise ConnectionFailure(f"the agent on {self.host} has ended")
        async with self._lock:
            self._tracing = _log.isEnabledFor(DEBUG)
            started = time.perf_counter() if self._tracing else 0.0
            if self._tracing:
                self._sent.clear()
                self._received[:] = [0, 0]
            try:
                yield
                if self._tracing:
                    self._trace_exchange(time.perf_counter() - started)
            except ConnectionFailure:
                self.dead = True
                raise
            except (OSError, EOFError) as exc:
                self.dead = True
                raise ConnectionFailure(f"lost the agent on {self.host}: {exc or type(exc).__name__}") from None
            except asyncio.CancelledError:
                self.dead = True
                self.abort()
                raise

    async def _receive(self) -> dict[str, Any]:
        return (await self._receive_frame())[0]

    def _note(self, kind: str, frame: bytes) -> bytes:
        """``frame``, noted for the trace as ``kind`` when it is on."""
        if self._tracing:
            self._sent.append((kind, len(frame)))
        return frame

    def _trace_exchange(self, seconds: float) -> None:
        """One line per exchange: the frames sent (consecutive ones of a kind together, as a file's chunks), the
        frames received and the round trip; the host-task being timed, if any, adds it to its module time."""
        task = current_task.get()
        if task is not None:
            task.add_exchange(seconds)
        groups: list[list[Any]] = []  # [kind, count, bytes]
        for kind, length in self._sent:
            if groups and groups[-1][0] == kind:
                groups[-1][1] += 1
                groups[-1][2] += length
            else:
                groups.append([kind, 1, length])
        sent = ", ".join(f"{kind}{f' x{count}' if count > 1 else ''} {size(length)}"
                         for kind, count, length in groups)
        _log.debug("<%s> FRAMES sent %s; received %d frame%s %s; round trip %s%s", self.address, sent or "nothing",
                   self._received[0], "" if self._received[0] == 1 else "s", size(self._received[1]),
                   milliseconds(seconds), f" ({task.task})" if task is not None else "")

    async def request(self, header: dict[str, Any], body: bytes = b"") -> dict[str, Any]:
        async with self._exchange():
            self.process.write(self._note(header.get("op", "?"), encode_frame(header, body)))
            return await self._receive()

    # -- operations ----------------------------------------------------------------------------------------
    async def run_module(self, modules: list[ModuleSource], params: dict[str, Any], *, check: bool = False,
                         diff: bool = False, environment: dict[str, Any] | None = None,
                         background: int | None = None, async_dir: str | None = None,
                         rlimit_nofile: int | None = None, async_job: bool = False,
                         debugger: dict[str, Any] | None = None, remote_tmp: str | None = None,
                         tmpdir: str | None = None) -> dict[str, Any]:
        """Run ``modules[-1]`` (earlier entries are what it imports); sources go only where the agent lacks them.
        ``background``: start it as an async job of at most that many seconds and return its job id at once,
        its state kept in ``async_dir`` (``~/.ansible_async`` when None); ``async_job``: an async task waited
        for, which runs in the foreground but has the async directory made, as Ansible's job does;
        ``rlimit_nofile``: the soft limit of open files the module (and what it starts) runs with;
        ``debugger``: a remote debugger to attach first (see ``runner.executor.module_debugger``);
        ``remote_tmp``: where the module's own temporary directory goes, if it asks for one (the agent's when
        None); ``tmpdir``: a directory of the task's the module uses instead."""
        return await self._load_and_run(modules, {
            "op": "run", "module": modules[-1].name, "params": params, "check": check, "diff": diff,
            "env": environment or None, "background": background, "async_dir": async_dir,
            "rlimit_nofile": rlimit_nofile, "async_job": async_job, "debugger": debugger, "remote_tmp": remote_tmp,
            "tmpdir": tmpdir})

    async def run_ansible_module(self, packed: ModuleSource, module_args: dict[str, Any], *,
                                 environment: dict[str, Any] | None = None,
                                 async_job: bool = False, async_dir: str | None = None,
                                 rlimit_nofile: int | None = None,
                                 debugger: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run a packed Ansible-API module (a zip, see ``runner/ansible_api``) with Ansible's
        ``ANSIBLE_MODULE_ARGS``; the zip goes only where the agent lacks it. ``async_job``: an async task waited
        for (see run_module), whose result carries what the module printed on stderr, as Ansible's async
        wrapper gives it. ``rlimit_nofile``: the soft limit of open files the module runs with."""
        return await self._load_and_run([packed], {
            "op": "run_ansible", "module": packed.name, "args": module_args, "profile": packed.profile,
            "env": environment or None,
            "async_job": async_job, "async_dir": async_dir, "rlimit_nofile": rlimit_nofile,
            "debugger": debugger})

    async def _load_and_run(self, modules: list[ModuleSource], run: dict[str, Any]) -> dict[str, Any]:
        async with self._exchange():
            frames = []
            for source in modules:
                if self.loaded.get(source.name) != source.digest:
                    # A packed Ansible-API module is kept as a zip (stash), a native one executed (load).
                    load = ({"op": "load", "name": source.name, "hash": source.digest} if source.fqn is None
                            else {"op": "stash", "name": source.name, "hash": source.digest, "fqn": source.fqn})
                    frames.append(self._note("load", encode_frame(load, source.source)))
            frames.append(self._note(run["op"], encode_frame(run)))
            self.process.write(b"".join(frames))
            for source in modules:
                if self.loaded.get(source.name) != source.digest:
                    reply = await self._receive()
                    if reply.get("failed"):
                        await self._receive()  # the run's reply, which says the module is missing
                        return reply
                    self.loaded[source.name] = source.digest
            return await self._receive()

    async def put(self, data: bytes | Path, remote_path: str, mode: int | None = None, *,
                  temporary: bool = False) -> dict[str, Any]:
        """Stream bytes or a local file to ``remote_path`` (written beside it, then renamed into place).

        A ``temporary`` file is one a later module moves into place; the agent removes it if it is still there
        when the agent ends (an interrupted run leaves nothing half-done behind)."""
        async with self._exchange():
            if isinstance(data, bytes):
                chunks: Iterable[bytes] = (data[i:i + PUT_CHUNK] for i in range(0, len(data), PUT_CHUNK))
            else:
                chunks = _file_chunks(data)
            previous = b""
            for chunk in chunks:
                if previous:
                    self.process.write(self._note("put", encode_frame(
                        {"op": "put", "path": remote_path, "temporary": temporary}, previous)))
                    await self.process.drain()
                previous = chunk
            self.process.write(self._note("put", encode_frame(
                {"op": "put", "path": remote_path, "final": True, "mode": mode, "temporary": temporary}, previous)))
            return await self._receive()

    async def fetch(self, remote_path: str) -> tuple[dict[str, Any], bytes]:
        """Read a whole remote file; returns the final reply (checksum or failure) and the content."""
        async with self._exchange():
            self.process.write(self._note("fetch", encode_frame({"op": "fetch", "path": remote_path})))
            chunks = []
            while True:
                header, body = await self._receive_frame()
                if header.get("chunk"):
                    chunks.append(body)
                    continue
                return header, b"".join(chunks)

    def release(self) -> None:
        """Tell the agent to end (it removes its temp files and exits), without waiting for it to have done so;
        an agent kept between runs is handed back instead, idle, with the modules it holds."""
        if not self.dead and self.process.give_back(self.loaded):
            if self._stderr_task is not None:
                self._stderr_task.cancel()
            return
        self._request_exit()

    async def end(self) -> None:
        """End the agent, kept between runs or not, and wait until it has exited (stopping it after 5 seconds)."""
        self._request_exit()
        await self._exited()

    def _request_exit(self) -> None:
        try:
            self.process.write(encode_frame({"op": "exit"}))
            self.process.close_stdin()
        except (OSError, ConnectionFailure):
            self.process.terminate()
        if self._stderr_task is not None:
            self._stderr_task.cancel()

    async def close(self) -> None:
        """End the agent and wait until it has exited (stopping it if it does not within 5 seconds)."""
        self.release()
        await self._exited()

    async def _exited(self) -> None:
        try:
            await asyncio.wait_for(self.process.wait(), 5)
        except (TimeoutError, OSError, ConnectionFailure):
            self.process.terminate()

    def abort(self) -> None:
        """Stop the agent now (interrupt): it removes its temp files and ends what it started."""
        self.process.terminate()
        if self._stderr_task is not None:
            self._stderr_task.cancel()
