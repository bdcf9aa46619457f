"""A run's side of the keeper: a ``Transport`` whose connection and agents the keeper holds.

Each host gets a control socket (its connection borrowed for the run, raw commands) and one socket per agent,
which relays the agent's stdin, stdout and stderr. At the end of the run an idle agent is handed back with the
modules it holds, so the next run sends none of them again. When the keeper cannot be reached the transport
connects directly, as without a keeper.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import sys
from typing import Any

from runner.connection.keeper import KeeperAddress, KeeperChoice
from runner.connection.keeper.identity import agent_key, connection_key, connection_settings
from runner.connection.keeper.place import KeeperPlaceError
from runner.connection.keeper.start import KeeperStartError, ensure_keeper
from runner.connection.keeper.wire import (
    EXIT,
    RETURN,
    STDERR,
    STDIN,
    STDIN_EOF,
    STDOUT,
    TERMINATE,
    encode_message,
    read_message,
    read_relay_frame,
    relay_frame,
)
from runner.connection.settings import BecomeSettings, ConnectionSettings
from runner.connection.ssh import SSHTransport, trace_kept_connection
from runner.connection.ssh_args import SSHArgumentError
from runner.connection.transport import CommandResult, RemoteProcess, StreamedProcess, Transport, TransportLost
from runner.errors import ConnectionFailure
from runner.util.logging import VERBOSE
from runner.util.private_dir import peer_uid

_log = logging.getLogger(__name__)
# Seconds for the keeper to say it holds an agent for us (it starts one if it has none idle: a process on the
# host, whose own start is timed by the agent client).
AGENT_REPLY_TIMEOUT = 30.0


class _Found:
    """This process's keeper, found (or started) by its first SSH connection; None once it could not be."""

    address: KeeperAddress | None = None
    failed = False
    lock: asyncio.Lock | None = None


async def _keeper(choice: KeeperChoice) -> KeeperAddress | None:
    if _Found.address is not None or _Found.failed:
        return _Found.address
    _Found.lock = _Found.lock or asyncio.Lock()
    async with _Found.lock:
        if _Found.address is None and not _Found.failed:
            try:
                _Found.address = await asyncio.to_thread(ensure_keeper, choice.persist, choice.directory)
            except (KeeperPlaceError, KeeperStartError) as exc:
                _Found.failed = True
                sys.stderr.write(f"[WARNING]: {exc}; connecting directly, without keeping connections for the "
                                 "next run\n")
    return _Found.address


async def _open(address: KeeperAddress) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_unix_connection(str(address.socket))
    sock = writer.get_extra_info("socket")
    if sock is None or peer_uid(sock) != os.getuid():
        writer.close()
        raise ConnectionRefusedError(f"the keeper socket {address.socket} is served by another user")
    return reader, writer


async def _ask(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, message: dict[str, Any],
               timeout: float) -> dict[str, Any]:
    writer.write(encode_message(message))
    await writer.drain()
    reply = await asyncio.wait_for(read_message(reader), timeout)
    if reply is None:
        raise ConnectionResetError("the keeper closed the socket")
    return reply


def _raise_for(reply: dict[str, Any]) -> None:
    """The keeper's error reply as the error a direct connection would have raised."""
    if reply.get("ok"):
        return
    message = str(reply.get("error") or "the keeper refused the request")
    kind = reply.get("kind")
    if kind == "argument":
        raise SSHArgumentError(message)
    if kind == "timeout":
        raise TimeoutError(message)
    if kind == "lost":
        raise TransportLost(message)
    raise ConnectionFailure(message)


class KeeperProcess(StreamedProcess):
    """An agent the keeper lends: its stdin, stdout and stderr relayed over one Unix socket."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, *, adopted: bool,
                 loaded: dict[str, str]):
        self.reader, self.writer, self.host = reader, writer, host
        self.adopted = adopted
        self.loaded = loaded
        self.stdout = asyncio.StreamReader()
        self.stderr = asyncio.StreamReader()
        self.exit_status: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._demux = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            while (frame := await read_relay_frame(self.reader)) is not None:
                kind, data = frame
                if kind == STDOUT:
                    self.stdout.feed_data(data)
                elif kind == STDERR:
                    self.stderr.feed_data(data)
                elif kind == EXIT and not self.exit_status.done():
                    status = json.loads(data or b"null")
                    self.exit_status.set_result(status if isinstance(status, int) else None)
        except (OSError, ValueError):
            pass
        finally:
            self.stdout.feed_eof()
            self.stderr.feed_eof()
            if not self.exit_status.done():
                self.exit_status.set_result(None)

    def _send(self, kind: bytes, data: bytes = b"") -> None:
        if self.writer.is_closing():
            raise TransportLost(f"lost the connection to {self.host}: the keeper's relay closed")
        self.writer.write(relay_frame(kind, data))

    def write(self, data: bytes) -> None:
        self._send(STDIN, data)

    async def drain(self) -> None:
        try:
            await self.writer.drain()
        except (OSError, ConnectionError) as exc:
            raise TransportLost(f"lost the connection to {self.host}: {exc}") from None

    def terminate(self) -> None:
        with contextlib.suppress(Exception):
            self._send(TERMINATE)
        self.writer.close()

    async def wait(self) -> int | None:
        return await self.exit_status

    def close_stdin(self) -> None:
        with contextlib.suppress(Exception):
            self._send(STDIN_EOF)

    def give_back(self, loaded: dict[str, str]) -> bool:
        if self.writer.is_closing() or self.exit_status.done():
            return False
        self._send(RETURN, json.dumps(loaded).encode())
        self.writer.close()
        self._demux.cancel()
        return True


class KeeperTransport(Transport):
    """One host's connection, held by the keeper; direct when the keeper cannot be reached."""

    close_ends_processes = True

    def __init__(self, settings: ConnectionSettings, choice: KeeperChoice):
        self.settings = settings
        self.choice = choice
        self.address = KeeperAddress(choice.directory, choice.persist, b"")  # the keeper's, once connected
        self.direct: SSHTransport | None = None
        self.key = ""
        self._files: list[str] = []
        self._control: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._lock = asyncio.Lock()

    def _connect_message(self, op: str) -> dict[str, Any]:
        return {"op": op, "key": self.key, "settings": connection_settings(self.settings), "files": self._files,
                "persist": self.address.persist}

    def _connect_timeout(self) -> float:
        # The keeper makes the attempts a direct connection would, with their backoff; this bounds a keeper
        # that stopped answering.
        return self.settings.timeout * max(1, self.settings.connect_retries) + 30

    async def connect(self) -> None:
        address = await _keeper(self.choice)
        try:
            if address is None:
                raise ConnectionRefusedError("no keeper")
            self.address = address
            self.key, self._files = connection_key(self.settings, address.salt)
            reader, writer = await _open(address)
            reply = await _ask(reader, writer, self._connect_message("connect"), self._connect_timeout())
        except (OSError, ConnectionError, TimeoutError) as exc:
            # The keeper went since the run started (killed, expired): connect as if there were none.
            if _log.isEnabledFor(VERBOSE):
                _log.info("<%s> the connection keeper is not answering (%s): connecting directly",
                          self.settings.address, exc)
            self.direct = SSHTransport(self.settings)
            await self.direct.connect()
            return
        if not reply.get("ok"):
            writer.close()
            _raise_for(reply)
        self._control = (reader, writer)
        trace_kept_connection(self.settings)
        if _log.isEnabledFor(VERBOSE):
            _log.info("<%s> KEEPER: %s connection", self.settings.address,
                      "reusing a kept" if reply.get("reused") else "opened a new")

    async def _request(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        if self._control is None:
            raise ConnectionFailure(f"not connected to {self.settings.address}")
        reader, writer = self._control
        async with self._lock:
            try:
                return await _ask(reader, writer, message, timeout)
            except (OSError, ConnectionError) as exc:
                writer.close()
                raise TransportLost(f"lost the connection to {self.settings.address}: the keeper went ({exc})"
                                    ) from None

    async def reset(self) -> None:
        """The kept connection stopped answering: have the keeper replace it with a new one."""
        if self.direct is None:
            _raise_for(await self._request(self._connect_message("reset"), self._connect_timeout()))

    async def start(self, command: str) -> RemoteProcess:
        return await self.start_agent(command, None)

    async def start_agent(self, command: str, become: BecomeSettings | None, *, fresh: bool = False
                          ) -> RemoteProcess:
        if self.direct is not None:
            return await self.direct.start(command)
        try:
            return await self._borrow_agent(command, become, fresh=fresh)
        except TransportLost:
            if fresh:
                raise
        # The kept connection closed since this run borrowed it (its host restarted): a new one, once.
        await self.reset()
        return await self._borrow_agent(command, become, fresh=True)

    async def _borrow_agent(self, command: str, become: BecomeSettings | None, *, fresh: bool) -> RemoteProcess:
        try:
            reader, writer = await _open(self.address)
            reply = await _ask(reader, writer, {
                "op": "agent", "connection": self.key, "key": agent_key(self.settings, become, self.address.salt),
                "command": command, "fresh": fresh, "persist": self.address.persist}, AGENT_REPLY_TIMEOUT)
        except (OSError, ConnectionError, TimeoutError) as exc:
            raise TransportLost(f"lost the connection to {self.settings.address}: the keeper went ({exc})"
                                ) from None
        if not reply.get("ok"):
            writer.close()
            _raise_for(reply)
        loaded = reply.get("loaded")
        return KeeperProcess(reader, writer, self.settings.address, adopted=bool(reply.get("adopted")),
                             loaded=loaded if isinstance(loaded, dict) else {})

    async def run(self, command: str, stdin: bytes | None = None, timeout: float | None = None) -> CommandResult:
        if self.direct is not None:
            return await self.direct.run(command, stdin=stdin, timeout=timeout)
        reply = await self._request({"op": "run", "command": command, "timeout": timeout,
                                     "stdin": base64.b64encode(stdin).decode() if stdin is not None else None},
                                    # the command's own timeout is the keeper's to apply; None waits as long
                                    (timeout + 30) if timeout else 10 ** 9)
        _raise_for(reply)
        return CommandResult(int(reply["rc"]), base64.b64decode(reply["stdout"]), base64.b64decode(reply["stderr"]))

    def is_closed(self) -> bool:
        if self.direct is not None:
            return self.direct.is_closed()
        return self._control is None or self._control[1].is_closing()

    async def close(self) -> None:
        if self.direct is not None:
            await self.direct.close()
        if self._control is not None:
            self._control[1].close()
            self._control = None
