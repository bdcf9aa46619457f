"""The connection keeper: SSH connections and their agents kept by a per-user background process between runs,
so a run after the first one costs only its tasks.

The controller finds or starts the keeper (``start.py``) before its workers fork and records where it is
(``use_keeper``); the workers' connections then go through it (``transport.py``). The keeper itself is
``daemon.py``; what decides which connection and which agent a run may reuse is ``identity.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KeeperAddress:
    """Where the run's keeper listens, how long it keeps what is idle, and the salt its keys are made with."""

    socket: Path
    persist: float
    salt: bytes


_in_use: KeeperAddress | None = None


def use_keeper(address: KeeperAddress | None) -> None:
    """Make this process's SSH connections (and its workers', forked after this) go through the keeper."""
    global _in_use
    _in_use = address


def keeper_in_use() -> KeeperAddress | None:
    return _in_use
