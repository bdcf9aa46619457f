"""Whether the controller that started a run is still running: how a run killed outright is told apart.

A run row carries the controller's machine, pid and the process's start time (from /proc, in clock ticks since
boot); the pid alone could since belong to another process. Runs of other machines (a shared PostgreSQL) are
left alone: their controllers cannot be seen from here.
"""

from __future__ import annotations

import os
import socket
from datetime import UTC, datetime

from runner.records.store import RowStore


def controller_name() -> str:
    return socket.gethostname()


def process_start_ticks(pid: int) -> int | None:
    """Field 22 of /proc/PID/stat (the start time), or None where there is no /proc or no such process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return int(fields[19])  # fields after the command name start at field 3
    except (OSError, IndexError, ValueError):
        return None


def is_alive(pid: int, started: int | None) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # someone else's process: it exists
    return started is None or process_start_ticks(pid) in (started, None)


def mark_interrupted(store: RowStore) -> list[int]:
    """Runs of this machine without an end whose controller is gone become ``interrupted``; their ids."""
    dead = [run_id for run_id, pid, started in store.running_runs(controller_name()) if not is_alive(pid, started)]
    store.update_runs(dead, {"status": "interrupted"}, only_status="running")
    return dead


def utc_now() -> datetime:
    return datetime.now(UTC)
