"""What the agent client needs from a way of reaching a host: start a process, run a command, close."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from runner.errors import ConnectionFailure

if TYPE_CHECKING:
    from runner.connection.settings import BecomeSettings


class TransportLost(ConnectionFailure):
    """The connection itself broke (lost, reset, keepalive unanswered): not something the remote side said."""


@dataclass
class CommandResult:
    rc: int
    stdout: bytes
    stderr: bytes


class RemoteProcess(ABC):
    """A process on the host with binary stdin/stdout/stderr: the agent, or the shell wrapping it."""

    # An agent lent by the connection keeper that is already running (``adopted``) skips the start-up handshake,
    # and holds the modules in ``loaded`` (name -> hash).
    adopted = False
    loaded: dict[str, str] = {}

    @abstractmethod
    def write(self, data: bytes) -> None: ...

    @abstractmethod
    async def drain(self) -> None: ...

    @abstractmethod
    async def read_exactly(self, size: int) -> bytes:
        """Read ``size`` bytes of stdout; raise ``EOFError`` when the process ended first."""

    @abstractmethod
    async def read_stderr(self, size: int = 4096) -> bytes:
        """Some bytes of stderr, b'' at its end."""

    @abstractmethod
    def terminate(self) -> None:
        """Ask the process (and what it started) to stop: SIGTERM, then the channel closes."""

    @abstractmethod
    async def wait(self) -> int | None: ...

    @abstractmethod
    def close_stdin(self) -> None: ...

    def give_back(self, loaded: dict[str, str]) -> bool:
        """Hand an idle agent back to whoever keeps it for the next run, holding the modules ``loaded``; False
        when nobody keeps it (then it is told to exit)."""
        return False


class StreamedProcess(RemoteProcess):
    """A process whose stdout and stderr arrive as asyncio streams (a local subprocess, an agent relayed by the
    connection keeper): reading them is the same whatever feeds them."""

    stdout: asyncio.StreamReader
    stderr: asyncio.StreamReader

    async def read_exactly(self, size: int) -> bytes:
        try:
            return await self.stdout.readexactly(size)
        except asyncio.IncompleteReadError as exc:
            raise EOFError from exc

    async def read_stderr(self, size: int = 4096) -> bytes:
        return await self.stderr.read(size)


class Transport(ABC):
    """One connection to one host, opened once and reused for every task of the run."""

    # Whether closing the transport closes the stdin of every process started on it, so that a process that
    # was told to end finishes on its own (SSH: the channels close with the connection).
    close_ends_processes = False

    @abstractmethod
    async def connect(self) -> None: ...

    @abstractmethod
    async def start(self, command: str) -> RemoteProcess: ...

    async def start_agent(self, command: str, become: BecomeSettings | None, *, fresh: bool = False
                          ) -> RemoteProcess:
        """The agent's process: started with ``command``, or, where agents outlive runs, an idle one started
        earlier for the same settings and ``become`` (``fresh``: never that)."""
        return await self.start(command)

    async def reset(self) -> None:
        """A reused connection stopped answering: replace it (only a kept connection can be reused)."""
        return None

    @abstractmethod
    async def run(self, command: str, stdin: bytes | None = None, timeout: float | None = None) -> CommandResult:
        """Run a command on a plain exec channel (what ``raw`` uses: no Python needed on the host)."""

    @abstractmethod
    async def close(self) -> None: ...

    def is_closed(self) -> bool:
        """True when the connection has gone (the host rebooted, the network dropped it)."""
        return False


