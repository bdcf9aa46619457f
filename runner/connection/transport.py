"""What the agent client needs from a way of reaching a host: start a process, run a command, close."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from runner.errors import ConnectionFailure


class TransportLost(ConnectionFailure):
    """The connection itself broke (lost, reset, keepalive unanswered): not something the remote side said."""


@dataclass
class CommandResult:
    rc: int
    stdout: bytes
    stderr: bytes


class RemoteProcess(ABC):
    """A process on the host with binary stdin/stdout/stderr: the agent, or the shell wrapping it."""

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


class Transport(ABC):
    """One connection to one host, opened once and reused for every task of the run."""

    # Whether closing the transport closes the stdin of every process started on it, so that a process that
    # was told to end finishes on its own (SSH: the channels close with the connection).
    close_ends_processes = False

    @abstractmethod
    async def connect(self) -> None: ...

    @abstractmethod
    async def start(self, command: str) -> RemoteProcess: ...

    @abstractmethod
    async def run(self, command: str, stdin: bytes | None = None, timeout: float | None = None) -> CommandResult:
        """Run a command on a plain exec channel (what ``raw`` uses: no Python needed on the host)."""

    @abstractmethod
    async def close(self) -> None: ...

    def is_closed(self) -> bool:
        """True when the connection has gone (the host rebooted, the network dropped it)."""
        return False


