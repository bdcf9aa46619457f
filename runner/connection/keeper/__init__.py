"""The connection keeper: SSH connections and their agents kept by a per-user background process between runs,
so a run after the first one costs only its tasks.

The controller checks the keeper's directory and records the choice before its workers fork (``use_keeper``);
the workers' SSH connections then go through the keeper (``transport.py``), the first of them finding or
starting it (``start.py``), so a run that connects to no host over SSH starts none; except that a playbook run
that will most likely connect over SSH starts it ahead, while it compiles (``start.start_ahead``). The keeper itself is
``daemon.py``; what decides which connection and which agent a run may reuse is ``identity.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KeeperChoice:
    """A run's choice to keep its connections: the keeper's (checked) directory and its idle time limit."""

    directory: Path
    persist: float


@dataclass(frozen=True)
class KeeperAddress:
    """Where a running keeper listens, how long it keeps what is idle, and the salt its keys are made with."""

    socket: Path
    persist: float
    salt: bytes


_in_use: KeeperChoice | None = None


def use_keeper(choice: KeeperChoice | None) -> None:
    """Make this process's SSH connections (and its workers', forked after this) go through the keeper, which
    the first of them to connect over SSH starts if none runs."""
    global _in_use
    _in_use = choice


def keeper_in_use() -> KeeperChoice | None:
    return _in_use
