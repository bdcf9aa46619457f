"""Waiting for a new server: until its provider says it runs, then until its SSH server answers.

"Answers" means an SSH server sends its identification line (``SSH-2.0-...``): a port that only accepts
connections (a firewall's proxy, a daemon still starting) is not enough.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

from runner.providers.base import ProviderError, ServerState

BANNER_TIMEOUT = 5.0


def wait_until_running(find: Callable[[], ServerState | None], name: str, timeout: float, interval: float,
                       sleep: Callable[[float], None] = time.sleep) -> ServerState:
    """Poll ``find`` until the server runs; an error when it disappears or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        state = find()
        if state is None:
            raise ProviderError(f"server '{name}' disappeared while waiting for it to run")
        if state.running:
            return state
        if time.monotonic() >= deadline:
            raise ProviderError(f"server '{name}' is still '{state.state}' after {timeout:.0f} s")
        sleep(interval)


def ssh_answers(address: str, port: int = 22, timeout: float = BANNER_TIMEOUT) -> bool:
    """Whether an SSH server at ``address:port`` sends its identification line."""
    try:
        with socket.create_connection((address, port), timeout=timeout) as connection:
            connection.settimeout(timeout)
            return connection.recv(256).startswith(b"SSH-")
    except OSError:
        return False


def wait_for_ssh(address: str, port: int, timeout: float, interval: float,
                 sleep: Callable[[float], None] = time.sleep) -> None:
    deadline = time.monotonic() + timeout
    while not ssh_answers(address, port, min(BANNER_TIMEOUT, max(timeout, 0.1))):
        if time.monotonic() >= deadline:
            raise ProviderError(f"SSH at {address}:{port} did not answer within {timeout:.0f} s")
        sleep(interval)
