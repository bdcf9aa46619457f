"""The SSH connection: one asyncssh connection per host for the whole run.

Honours the OpenSSH arguments and configuration (see ssh_options), known_hosts, keys, the ssh-agent and
passwords. Transient failures (refused, reset, timed out) are retried with backoff; a bad host key, a failed
login or an option that cannot be honoured is not. Once connected, SSH keepalives find a peer that stopped
answering, and every transport error is a ``ConnectionFailure``: the host is unreachable, not failed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time

import asyncssh

from runner.connection.settings import ConnectionSettings
from runner.connection.ssh_args import SSHArgumentError
from runner.connection.ssh_options import SSHTarget, ssh_target
from runner.connection.transport import CommandResult, RemoteProcess, Transport, TransportLost
from runner.errors import ConnectionFailure
from runner.util.logging import DEBUG, DISPLAYED, VERBOSE, milliseconds

_TRANSIENT = (ConnectionRefusedError, ConnectionResetError, TimeoutError, asyncio.TimeoutError,
              asyncssh.ConnectionLost, socket.gaierror)

_KNOWN_HOSTS: dict[str, tuple[float, asyncssh.SSHKnownHosts]] = {}
_log = logging.getLogger(__name__)


def _known_hosts(path: str) -> asyncssh.SSHKnownHosts | str:
    """A known_hosts file parsed once per worker (and again only if it changes), not once per connection: with
    a key per host, parsing it for every connection would cost O(hosts²)."""
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return path  # let asyncssh report the missing file as it would
    cached = _KNOWN_HOSTS.get(path)
    if cached is None or cached[0] != mtime:
        cached = _KNOWN_HOSTS[path] = (mtime, asyncssh.read_known_hosts(path))
    return cached[1]


class _ConnectionWatch(asyncssh.SSHClient):
    """Keeps why the connection ended (reset, keepalive unanswered), to say so in what fails after it."""

    def __init__(self) -> None:
        self.reason: str | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:
            self.reason = str(exc) or type(exc).__name__


class _LostConnection:
    """Turns transport errors (connection lost or reset, keepalive unanswered, channel closed) into what they mean
    for the run: the host is unreachable (``ConnectionFailure``), saying why the connection ended."""

    def __init__(self, host: str):
        self.host = host
        self.watch = _ConnectionWatch()

    def __call__(self, exc: BaseException | None = None) -> TransportLost:
        reason = self.watch.reason or (str(exc) if exc else "") or (type(exc).__name__ if exc else "closed")
        return TransportLost(f"lost the connection to {self.host}: {reason}")


class SSHProcess(RemoteProcess):
    """A process on an SSH channel; every transport error it meets is a ``ConnectionFailure``."""

    def __init__(self, process: asyncssh.SSHClientProcess, lost: _LostConnection):
        self.process = process
        self.lost = lost

    def write(self, data: bytes) -> None:
        try:
            self.process.stdin.write(data)
        except (OSError, asyncssh.Error) as exc:
            raise self.lost(exc) from None

    async def drain(self) -> None:
        try:
            await self.process.stdin.drain()
        except (OSError, asyncssh.Error) as exc:
            raise self.lost(exc) from None

    async def read_exactly(self, size: int) -> bytes:
        try:
            return await self.process.stdout.readexactly(size)
        except asyncio.IncompleteReadError as exc:
            raise EOFError from exc
        except (OSError, asyncssh.Error) as exc:
            raise self.lost(exc) from None

    async def read_some(self, size: int) -> bytes:
        """Up to ``size`` bytes of stdout as they come, b'' at its end (what a relay forwards)."""
        try:
            return await self.process.stdout.read(size)
        except (OSError, asyncssh.Error) as exc:
            raise self.lost(exc) from None

    async def read_stderr(self, size: int = 4096) -> bytes:
        try:
            return await self.process.stderr.read(size)
        except (OSError, asyncssh.Error):
            return b""  # the end of stderr: what broke is reported by the read of stdout

    def terminate(self) -> None:
        try:
            # OpenSSH (>= 7.9) delivers the signal to the agent, which ends its process group.
            self.process.send_signal("TERM")
        except (OSError, asyncssh.Error):
            pass
        self.process.close()

    async def wait(self) -> int | None:
        try:
            completed = await self.process.wait(check=False)
        except (OSError, asyncssh.Error) as exc:
            raise self.lost(exc) from None
        return completed.exit_status

    def close_stdin(self) -> None:
        try:
            self.process.stdin.write_eof()
        except (OSError, asyncssh.Error):
            pass


def _describe(settings: ConnectionSettings, target: SSHTarget) -> str:
    """How the connection was decided, for the -vvvv trace: where it goes, as whom, and which settings, files
    and hops said so."""
    options = target.options
    decided = ", ".join(f"{keyword} from {source}" for keyword, source in sorted(target.sources.items())
                        if keyword in ("Hostname", "Port", "User", "ProxyJump", "ProxyCommand"))
    parts = [f"{settings.name} is {target.user}@{target.host}:{target.port}",
             f"config files: {', '.join(options.get('config') or ()) or 'none'}",
             f"jump host: {options.get('tunnel') or 'none'}"]
    if options.get("client_keys"):
        parts.append(f"keys: {', '.join(options['client_keys'])}")
    if options.get("proxy_command"):
        parts.append("proxy command set")
    if decided:
        parts.append(decided)
    return "; ".join(parts)


def _establish(address: str, user: str) -> None:
    if _log.isEnabledFor(VERBOSE):
        _log.info("<%s> ESTABLISH SSH CONNECTION FOR USER: %s", address, user, extra=DISPLAYED)


def trace_kept_connection(settings: ConnectionSettings) -> None:
    """Ansible's -vvv ``ESTABLISH SSH CONNECTION`` line for a connection the keeper opened or kept: the keeper's
    own log is not the run's output, and Ansible says it for every connection, a persistent one too."""
    if not _log.isEnabledFor(VERBOSE):
        return
    try:
        user = ssh_target(settings, _known_hosts).user
    except (SSHArgumentError, OSError):
        return  # the keeper resolved them already; a file changed since is no reason to fail the run here
    _establish(settings.address, user)


class SSHTransport(Transport):
    close_ends_processes = True

    def __init__(self, settings: ConnectionSettings):
        self.settings = settings
        self.connection: asyncssh.SSHClientConnection | None = None
        self._lost = _LostConnection(settings.address)

    async def connect(self) -> None:
        s = self.settings
        target = ssh_target(s, _known_hosts)  # an option that cannot be honoured fails here, before any attempt
        where = f"{s.address}:{target.port}" if target.host == s.address else \
            f"{s.address} ({target.host}:{target.port})"
        via = f" via {target.options['tunnel']}" if target.options.get("tunnel") else ""
        _establish(s.address, target.user)
        if _log.isEnabledFor(DEBUG):
            _log.debug("<%s> SSH: %s", s.address, _describe(s, target))
        delay = 0.5
        for attempt in range(1, max(1, s.connect_retries) + 1):
            started = time.perf_counter()
            try:
                self.connection = await asyncssh.connect(target.host, client_factory=self._watch, **target.options)
                if _log.isEnabledFor(DEBUG):
                    _log.debug("<%s> SSH: connected in %s (attempt %d; handshake and authentication)", s.address,
                               milliseconds(time.perf_counter() - started), attempt)
                return
            except asyncssh.HostKeyNotVerifiable as exc:
                raise ConnectionFailure(
                    f"host key verification failed for {where}{via}: the key is unknown or has changed "
                    f"({exc.reason}); check known_hosts, or set host_key_checking = False") from None
            except asyncssh.PermissionDenied:
                user = target.options.get("username") or "the configured user"
                raise ConnectionFailure(
                    f"permission denied logging in to {where}{via} as {user} (publickey/password)") from None
            except _TRANSIENT as exc:
                reason = str(exc) or type(exc).__name__
                if attempt >= s.connect_retries:
                    raise ConnectionFailure(
                        f"failed to connect to {where}{via} after {attempt} attempts: {reason}") from None
                _log.debug("<%s> SSH: attempt %d failed after %s (%s); retrying in %.1f s", s.address, attempt,
                           milliseconds(time.perf_counter() - started), reason, delay)
                await asyncio.sleep(delay)
                delay *= 2
            except ValueError as exc:  # asyncssh refusing an option's value (an unknown cipher, say)
                raise SSHArgumentError(f"ssh options for {s.name}: {exc}") from None
            except (OSError, asyncssh.Error) as exc:
                raise ConnectionFailure(f"failed to connect to {where}{via}: {exc}") from None

    def _watch(self) -> _ConnectionWatch:
        self._lost.watch = _ConnectionWatch()  # each attempt's own: an earlier attempt's end is not this one's
        return self._lost.watch

    def _require(self) -> asyncssh.SSHClientConnection:
        if self.connection is None:
            raise ConnectionFailure(f"not connected to {self.settings.address}")
        return self.connection

    async def start(self, command: str) -> RemoteProcess:
        try:
            process = await self._require().create_process(command, encoding=None)
        except (OSError, asyncssh.Error) as exc:
            raise ConnectionFailure(f"cannot open a channel to {self.settings.address}: {exc}") from None
        return SSHProcess(process, self._lost)

    async def run(self, command: str, stdin: bytes | None = None, timeout: float | None = None) -> CommandResult:
        try:
            completed = await self._require().run(command, input=stdin, encoding=None, check=False,
                                                  timeout=timeout)
        except asyncssh.ProcessError as exc:  # raised on timeout by asyncssh
            raise TimeoutError(str(exc)) from None
        except (OSError, asyncssh.Error) as exc:
            raise self._lost(exc) from None
        if completed.exit_status is None and completed.exit_signal is None:
            raise self._lost()  # the channel closed without the command's end: the connection went
        rc = completed.exit_status if completed.exit_status is not None else 255
        return CommandResult(rc, _output_bytes(completed.stdout), _output_bytes(completed.stderr))

    def is_closed(self) -> bool:
        return self.connection is None or self.connection.is_closed()

    async def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            try:
                await asyncio.wait_for(self.connection.wait_closed(), 5)
            except (TimeoutError, asyncssh.Error, OSError):
                pass
            self.connection = None


def _output_bytes(output: bytes | str | None) -> bytes:
    """A command's output: bytes, as run without an encoding; asyncssh's type also allows text."""
    if isinstance(output, str):
        return output.encode()
    return bytes(output or b"")
