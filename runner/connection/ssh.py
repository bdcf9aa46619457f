"""The SSH connection: one asyncssh connection per host for the whole run.

Honours ~/.ssh/config (asyncssh reads it, ProxyJump included), known_hosts, keys, the ssh-agent and passwords.
Transient failures (refused, reset, timed out) are retried with backoff; a bad host key or failed login is not.
"""

from __future__ import annotations

import asyncio
import os
import socket
from typing import Any

import asyncssh

from runner.connection.settings import ConnectionSettings
from runner.connection.transport import CommandResult, RemoteProcess, Transport
from runner.errors import ConnectionFailure

_TRANSIENT = (ConnectionRefusedError, ConnectionResetError, TimeoutError, asyncio.TimeoutError,
              asyncssh.ConnectionLost, socket.gaierror)


_PREFERRED_CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com",
                      "aes128-ctr", "aes192-ctr", "aes256-ctr")

_KNOWN_HOSTS: dict[str, tuple[float, asyncssh.SSHKnownHosts]] = {}


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


class SSHProcess(RemoteProcess):
    def __init__(self, process: asyncssh.SSHClientProcess):
        self.process = process

    def write(self, data: bytes) -> None:
        self.process.stdin.write(data)

    async def drain(self) -> None:
        await self.process.stdin.drain()

    async def read_exactly(self, size: int) -> bytes:
        try:
            return await self.process.stdout.readexactly(size)
        except asyncio.IncompleteReadError as exc:
            raise EOFError from exc

    async def read_stderr(self, size: int = 4096) -> bytes:
        return await self.process.stderr.read(size)

    def terminate(self) -> None:
        try:
            # OpenSSH (>= 7.9) delivers the signal to the agent, which ends its process group.
            self.process.send_signal("TERM")
        except (OSError, asyncssh.Error):
            pass
        self.process.close()

    async def wait(self) -> int | None:
        completed = await self.process.wait(check=False)
        return completed.exit_status

    def close_stdin(self) -> None:
        try:
            self.process.stdin.write_eof()
        except (OSError, asyncssh.Error):
            pass


class SSHTransport(Transport):
    close_ends_processes = True

    def __init__(self, settings: ConnectionSettings):
        self.settings = settings
        self.connection: asyncssh.SSHClientConnection | None = None

    def _options(self) -> dict[str, Any]:
        s = self.settings
        options: dict[str, Any] = {
            "port": s.port,
            "connect_timeout": s.timeout,
            "login_timeout": s.timeout,
            "keepalive_interval": 30,
            # AES-GCM first: asyncssh's ChaCha20-Poly1305 builds cipher objects per packet in Python, GCM costs a
            # fraction of that per task; the others stay as fallbacks for servers that lack GCM.
            "encryption_algs": _PREFERRED_CIPHERS,
        }
        if s.user:
            options["username"] = s.user
        if s.password:
            options["password"] = s.password
        if s.private_key_file:
            options["client_keys"] = [os.path.expanduser(s.private_key_file)]
        if not s.host_key_checking:
            options["known_hosts"] = None
        elif s.known_hosts_file:
            options["known_hosts"] = _known_hosts(os.path.expanduser(s.known_hosts_file))
        if s.proxy_jump:
            options["tunnel"] = s.proxy_jump
        return options

    async def connect(self) -> None:
        s = self.settings
        delay = 0.5
        for attempt in range(1, max(1, s.connect_retries) + 1):
            try:
                self.connection = await asyncssh.connect(s.address, **self._options())
                return
            except asyncssh.HostKeyNotVerifiable as exc:
                raise ConnectionFailure(
                    f"host key verification failed for {s.address}:{s.port}: the key is unknown or has changed "
                    f"({exc.reason}); check known_hosts, or set host_key_checking = False") from None
            except asyncssh.PermissionDenied:
                raise ConnectionFailure(
                    f"permission denied logging in to {s.address}:{s.port} as {s.user or os.environ.get('USER')} "
                    "(publickey/password)") from None
            except _TRANSIENT as exc:
                if attempt >= s.connect_retries:
                    reason = str(exc) or type(exc).__name__
                    raise ConnectionFailure(
                        f"failed to connect to {s.address}:{s.port} after {attempt} attempts: {reason}") from None
                await asyncio.sleep(delay)
                delay *= 2
            except (OSError, asyncssh.Error) as exc:
                raise ConnectionFailure(f"failed to connect to {s.address}:{s.port}: {exc}") from None

    def _require(self) -> asyncssh.SSHClientConnection:
        if self.connection is None:
            raise ConnectionFailure(f"not connected to {self.settings.address}")
        return self.connection

    async def start(self, command: str) -> RemoteProcess:
        try:
            process = await self._require().create_process(command, encoding=None)
        except (OSError, asyncssh.Error) as exc:
            raise ConnectionFailure(f"cannot open a channel to {self.settings.address}: {exc}") from None
        return SSHProcess(process)

    async def run(self, command: str, stdin: bytes | None = None, timeout: float | None = None) -> CommandResult:
        try:
            completed = await self._require().run(command, input=stdin, encoding=None, check=False,
                                                  timeout=timeout)
        except asyncssh.ProcessError as exc:  # raised on timeout by asyncssh
            raise TimeoutError(str(exc)) from None
        except (OSError, asyncssh.Error) as exc:
            raise ConnectionFailure(f"lost the connection to {self.settings.address}: {exc}") from None
        rc = completed.exit_status if completed.exit_status is not None else 255
        return CommandResult(rc, bytes(completed.stdout or b""), bytes(completed.stderr or b""))

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
