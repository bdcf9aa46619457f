"""The keeper: a background process of one user holding SSH connections and their agents between runs.

Started by ``start.py`` as ``python -m runner.connection.keeper.daemon DIR PERSIST``: it forks twice (the second
child in a session of its own, so it outlives the run that started it and no terminal's signals reach it), takes
the directory's lock (one keeper per user), binds the socket, tells its starter it is ready, and serves. Every
client is checked with SO_PEERCRED: a process of another user is turned away before it says anything.

A run borrows a connection (``connect``), runs raw commands on it (``run``), and borrows agents on it
(``agent``): an idle one, or a new one started for it; the socket then relays the agent's stdin, stdout and
stderr. An agent handed back idle (``r``) waits for the next run; one whose borrower went without handing it
back (a killed worker, an interrupted task) is stopped, since its state is unknown. After ``persist`` seconds
with nothing borrowed, or when a key file or known_hosts a connection used has changed, connections close (each
agent asked to exit first, which removes its temp files); when none is left borrowed and the idle time is up the
keeper ends and removes its socket.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import fcntl
import logging
import os
import secrets
import signal
import socket
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from runner.connection.keeper.place import boot_id, checked_dir, lock_name, log_name, socket_name
from runner.connection.keeper.wire import (
    EXIT,
    RETURN,
    STDERR,
    STDIN,
    STDIN_EOF,
    STDOUT,
    TERMINATE,
    KeeperProtocolError,
    encode_message,
    read_message,
    read_relay_frame,
    relay_frame,
)
from runner.util.private_dir import peer_uid

if TYPE_CHECKING:
    from runner.connection.ssh import SSHProcess, SSHTransport

_log = logging.getLogger("runner.connection.keeper")
CHECK_INTERVAL = 1.0
READY = b"ready\n"
ALREADY = b"running\n"


@dataclass(eq=False)
class KeptAgent:
    """One agent process; lent to at most one borrower at a time."""

    key: str
    process: SSHProcess
    loaded: dict[str, str] = field(default_factory=dict)
    lease: asyncio.StreamWriter | None = None
    ended: bool = False
    pumps: list[asyncio.Task[None]] = field(default_factory=list)

    def send(self, kind: bytes, data: bytes) -> None:
        if self.lease is not None and not self.lease.is_closing():
            self.lease.write(relay_frame(kind, data))

    def stop(self) -> None:
        self.ended = True
        self.process.terminate()

    def release(self) -> None:
        """Ask an idle agent to exit: it removes its temp files on its own."""
        from runner.connection.agent_client import encode_frame

        self.ended = True
        with contextlib.suppress(Exception):
            self.process.write(encode_frame({"op": "exit"}))
            self.process.close_stdin()


@dataclass(eq=False)
class KeptConnection:
    key: str
    description: str
    transport: SSHTransport
    files: list[str]
    fingerprints: list[list[Any]]
    idle: dict[str, list[KeptAgent]] = field(default_factory=dict)
    lent: set[KeptAgent] = field(default_factory=set)
    borrowers: int = 0

    def agents(self) -> list[KeptAgent]:
        return [*self.lent, *(agent for agents in self.idle.values() for agent in agents)]

    async def close(self) -> None:
        for agent in self.agents():
            agent.release()
        self.idle.clear()
        await self.transport.close()


class Keeper:
    def __init__(self, directory: Path, persist: float):
        self.directory = directory
        self.persist = persist
        self.salt = secrets.token_bytes(32)
        self.boot_id = boot_id()
        self.connections: dict[str, KeptConnection] = {}
        self.connecting: dict[str, asyncio.Lock] = {}
        self.clients = 0
        self.last_used = time.monotonic()
        self.stopping = asyncio.Event()
        self.closing: set[asyncio.Task[None]] = set()

    # -- serving -------------------------------------------------------------------------------------------
    async def serve(self, listener: socket.socket) -> None:
        server = await asyncio.start_unix_server(self._client, sock=listener)
        loop = asyncio.get_running_loop()
        # What every connection needs, loaded at once in a thread (the loop answers meanwhile; a first connection
        # waits for it on the import lock): a keeper started ahead of its run loads it while that run compiles.
        loop.run_in_executor(None, _load_transport)
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            loop.add_signal_handler(signum, self.stopping.set)
        expiry = asyncio.ensure_future(self._expire())
        await self.stopping.wait()
        expiry.cancel()
        server.close()
        with contextlib.suppress(OSError):
            os.unlink(self.directory / socket_name(_version()))
        await asyncio.gather(*(entry.close() for entry in self.connections.values()), return_exceptions=True)
        await asyncio.sleep(0.2)  # let the agents' exit requests and the connections' close go out

    async def _expire(self) -> None:
        while True:
            await asyncio.sleep(CHECK_INTERVAL)
            # Every kept connection's files, each read once however many connections share it (with a hundred
            # hosts, the same key and known_hosts are most of them).
            paths = sorted({path for entry in self.connections.values() for path in entry.files})
            now = dict(zip(paths, await asyncio.to_thread(_fingerprints, paths), strict=True))
            for key, entry in list(self.connections.items()):
                if entry.transport.is_closed() or [now[path] for path in entry.files] != entry.fingerprints:
                    self._drop(key)
            if self.clients == 0 and time.monotonic() - self.last_used >= self.persist:
                _log.info("idle for %.0f s: ending", self.persist)
                self.stopping.set()

    def _drop(self, key: str) -> None:
        entry = self.connections.pop(key, None)
        if entry is not None:
            _log.info("closing %s", entry.description)
            closing = asyncio.ensure_future(entry.close())
            self.closing.add(closing)
            closing.add_done_callback(self.closing.discard)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is None or peer_uid(sock) != os.getuid():
            writer.close()  # another user's process: not a word
            return
        self.clients += 1
        try:
            await self._converse(reader, writer)
        except (KeeperProtocolError, OSError, ConnectionError) as exc:
            _log.info("client dropped: %s", exc)
        finally:
            self.clients -= 1
            self.last_used = time.monotonic()
            writer.close()

    async def _converse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        entry: KeptConnection | None = None
        try:
            while (message := await read_message(reader)) is not None:
                self.last_used = time.monotonic()
                if isinstance(message.get("persist"), (int, float)) and message["persist"] > 0:
                    self.persist = float(message["persist"])
                op = message.get("op")
                if op == "hello":
                    writer.write(encode_message(self._hello()))
                elif op == "stop":
                    writer.write(encode_message({"ok": True}))
                    await writer.drain()
                    self.stopping.set()
                    return
                elif op == "connect":
                    reply, entry = await self._connect(message, entry)
                    writer.write(encode_message(reply))
                elif op == "reset" and entry is not None:
                    self._drop(entry.key)
                    entry.borrowers -= 1
                    reply, entry = await self._connect(message, None)
                    writer.write(encode_message(reply))
                elif op == "run" and entry is not None:
                    writer.write(encode_message(await self._run(entry, message)))
                elif op == "agent":
                    await self._lend_agent(message, reader, writer)
                    return
                else:
                    writer.write(encode_message({"error": f"unknown request {op!r}", "kind": "protocol"}))
                await writer.drain()
        finally:
            if entry is not None:
                entry.borrowers -= 1

    def _hello(self) -> dict[str, Any]:
        return {"pid": os.getpid(), "boot_id": self.boot_id, "uid": os.getuid(), "persist": self.persist,
                "salt": self.salt.hex(), "version": _version(),
                "connections": [{"host": entry.description, "agents": len(entry.agents()),
                                 "lent": len(entry.lent), "borrowers": entry.borrowers}
                                for entry in self.connections.values()]}

    # -- connections ---------------------------------------------------------------------------------------
    async def _connect(self, message: dict[str, Any], held: KeptConnection | None
                       ) -> tuple[dict[str, Any], KeptConnection | None]:
        from runner.connection.settings import ConnectionSettings
        from runner.connection.ssh import SSHTransport
        from runner.connection.ssh_args import SSHArgumentError
        from runner.errors import ConnectionFailure

        if held is not None:
            return {"error": "this socket already holds a connection", "kind": "protocol"}, held
        key = str(message["key"])
        async with self.connecting.setdefault(key, asyncio.Lock()):
            entry = self.connections.get(key)
            if entry is not None and entry.transport.is_closed():
                self._drop(key)
                entry = None
            reused = entry is not None
            if entry is None:
                settings = ConnectionSettings(**message["settings"])
                transport = SSHTransport(settings)
                try:
                    await transport.connect()
                except SSHArgumentError as exc:
                    return {"error": str(exc), "kind": "argument"}, None
                except ConnectionFailure as exc:
                    return {"error": str(exc), "kind": "unreachable"}, None
                # The password has done its work: a new connection comes with a run's settings, never from these.
                transport.settings = replace(settings, password=None)
                files = [str(path) for path in message.get("files") or ()]
                entry = KeptConnection(key, f"{settings.user or ''}@{settings.address}:{settings.port or 22}",
                                       transport, files, await asyncio.to_thread(_fingerprints, files))
                self.connections[key] = entry
                _log.info("connected %s", entry.description)
            entry.borrowers += 1
            return {"ok": True, "reused": reused}, entry

    async def _run(self, entry: KeptConnection, message: dict[str, Any]) -> dict[str, Any]:
        from runner.errors import ConnectionFailure

        stdin = base64.b64decode(message["stdin"]) if message.get("stdin") is not None else None
        try:
            result = await entry.transport.run(str(message["command"]), stdin=stdin, timeout=message.get("timeout"))
        except TimeoutError as exc:
            return {"error": str(exc), "kind": "timeout"}
        except ConnectionFailure as exc:
            return {"error": str(exc), "kind": "lost"}
        return {"ok": True, "rc": result.rc, "stdout": base64.b64encode(result.stdout).decode(),
                "stderr": base64.b64encode(result.stderr).decode()}

    # -- agents --------------------------------------------------------------------------------------------
    async def _lend_agent(self, message: dict[str, Any], reader: asyncio.StreamReader,
                          writer: asyncio.StreamWriter) -> None:
        """Lend an idle agent (a new one when there is none, or ``fresh`` is asked), then relay it."""
        from runner.errors import ConnectionFailure

        entry = self.connections.get(str(message.get("connection")))
        if entry is None or entry.transport.is_closed():
            writer.write(encode_message({"error": "the kept connection has closed", "kind": "lost"}))
            return
        key = str(message["key"])
        idle = entry.idle.get(key) or []
        while idle and idle[-1].ended:
            idle.pop()
        if message.get("fresh"):
            for agent in idle:
                agent.release()
            idle.clear()
        if idle:
            agent = idle.pop()
            adopted = True
        else:
            try:
                process = await entry.transport.start(str(message["command"]))
            except ConnectionFailure as exc:
                writer.write(encode_message({"error": str(exc), "kind": "unreachable"}))
                return
            agent = KeptAgent(key, cast("SSHProcess", process))  # an SSH transport's process
            agent.pumps = [asyncio.ensure_future(self._pump_stdout(entry, agent)),
                           asyncio.ensure_future(self._pump_stderr(agent))]
            adopted = False
        agent.lease = writer
        entry.lent.add(agent)
        writer.write(encode_message({"ok": True, "adopted": adopted, "loaded": agent.loaded}))
        handed_back = False
        try:
            while (frame := await read_relay_frame(reader)) is not None:
                kind, data = frame
                if kind == STDIN:
                    agent.process.write(data)
                    await agent.process.drain()
                elif kind == STDIN_EOF:
                    agent.process.close_stdin()
                elif kind == TERMINATE:
                    agent.stop()
                elif kind == RETURN:
                    agent.loaded = _loaded(data)
                    handed_back = True
                    break
        except ConnectionFailure:
            agent.ended = True
        finally:
            agent.lease = None
            entry.lent.discard(agent)
            if handed_back and not agent.ended and self.connections.get(entry.key) is entry:
                entry.idle.setdefault(key, []).append(agent)
            elif not agent.ended:
                agent.stop()  # what it was doing when its borrower went is unknown: it cannot be lent again

    async def _pump_stdout(self, entry: KeptConnection, agent: KeptAgent) -> None:
        status: int | None = None
        try:
            while data := await agent.process.read_some(1 << 16):
                if agent.lease is None:
                    agent.stop()  # an idle agent never speaks: it is not in a state to be lent
                    break
                agent.send(STDOUT, data)
                await agent.lease.drain()
            with contextlib.suppress(Exception):
                status = await asyncio.wait_for(agent.process.wait(), 5)
        except Exception as exc:
            _log.info("agent on %s lost: %s", entry.description, exc)
        agent.ended = True
        agent.send(EXIT, str(status if status is not None else "null").encode())
        if agent.lease is not None:
            with contextlib.suppress(Exception):
                agent.lease.write_eof()

    async def _pump_stderr(self, agent: KeptAgent) -> None:
        with contextlib.suppress(Exception):
            while data := await agent.process.read_stderr(1 << 16):
                agent.send(STDERR, data)


def _loaded(data: bytes) -> dict[str, str]:
    import json

    try:
        loaded = json.loads(data or b"{}")
    except ValueError:
        return {}
    return {str(name): str(digest) for name, digest in loaded.items()} if isinstance(loaded, dict) else {}


def _load_transport() -> None:
    import runner.connection.settings
    import runner.connection.ssh  # noqa: F401


def _fingerprints(files: list[str]) -> list[list[Any]]:
    from runner.connection.keeper.identity import fingerprint

    return [fingerprint(path) for path in files]


def _version() -> str:
    from runner.connection.keeper.wire import build_id

    return build_id()


# -- start-up -------------------------------------------------------------------------------------------------
def _daemonize(ready_fd: int) -> None:
    """Fork twice: the keeper is nobody's child and leads no session a terminal could signal."""
    if os.fork() > 0:
        os._exit(0)
    os.setsid()
    if os.fork() > 0:
        os._exit(0)
    os.chdir("/")
    os.umask(0o077)


def main(argv: list[str]) -> int:
    """``DIR PERSIST [START_LOCK_FD]``: the start lock's descriptor, when the keeper was started ahead
    (``start.start_ahead``), is held until the keeper listens (or ends)."""
    directory, persist = Path(argv[0]), float(argv[1])
    start_lock = int(argv[2]) if len(argv) > 2 else None
    checked_dir(directory, create=False)
    ready_write = sys.stdout.fileno()  # the starter reads one line on our stdout, then it closes
    _daemonize(ready_write)
    lock = os.open(directory / lock_name(_version()), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.write(ready_write, ALREADY)  # another keeper holds the lock: it serves
        return 0
    socket_path = directory / socket_name(_version())
    with contextlib.suppress(FileNotFoundError):
        socket_path.unlink()  # left by a keeper that was killed: the lock says it is gone
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(socket_path))
    os.chmod(socket_path, 0o600)
    listener.listen(128)
    log = os.open(directory / log_name(_version()), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    null = os.open(os.devnull, os.O_RDWR)
    os.write(ready_write, READY)
    if start_lock is not None:
        os.close(start_lock)  # it listens: whoever waits to start a keeper now finds this one
    for target, source in ((0, null), (1, log), (2, log)):
        os.dup2(source, target)
    # Only the keeper's own lines: asyncssh's name the commands channels run, which may hold what no_log hides.
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s keeper[%(process)d] %(message)s",
                        stream=sys.stderr)
    _log.setLevel(logging.INFO)
    _log.info("serving %s, persist %.0f s", socket_path, persist)
    asyncio.run(Keeper(directory, persist).serve(listener))
    _log.info("ended")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
