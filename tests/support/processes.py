"""The machine's processes as /proc shows them, for tests that check what a run leaves behind.

Local test hosts run in their own PID namespaces, but the machine sees their processes too: a process belongs to
a host when its PID namespace is that of the host's init. Reading /proc (rather than running ``ps`` on the host
over SSH) sees the host as it is, without a connection of the product under test in between.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True)
class Process:
    pid: int
    ppid: int
    pgid: int
    state: str
    command: str  # the command line, arguments joined by spaces
    pid_namespace: str

    @property
    def running(self) -> bool:
        """False for a zombie: it has ended and holds nothing, only its exit status waits for its parent."""
        return self.state != "Z"


def _read(pid: int) -> Process | None:
    try:
        stat = (PROC / str(pid) / "stat").read_text()
        command = (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        namespace = os.readlink(PROC / str(pid) / "ns" / "pid")
    except OSError:
        return None  # it ended while being read
    # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after its last ")".
    state, ppid, pgid = stat[stat.rindex(")") + 2:].split()[:3]
    return Process(pid, int(ppid), int(pgid), state, command.strip(), namespace)


def processes() -> list[Process]:
    """Every process of the machine now, zombies included."""
    found = (_read(int(entry.name)) for entry in PROC.iterdir() if entry.name.isdigit())
    return [process for process in found if process is not None]


def processes_with(marker: str) -> list[int]:
    """The pids of the processes whose command line holds ``marker`` (a string unique to the test), zombies
    included."""
    return [process.pid for process in processes() if marker in process.command]


def pid_namespace(pid: int) -> str:
    """The PID namespace of process ``pid`` (a test host's init: the host's namespace)."""
    return os.readlink(PROC / str(pid) / "ns" / "pid")


def host_root(init_pid: int) -> Path:
    """The root directory of the test host whose init is ``init_pid``, as the machine can read it."""
    return PROC / str(init_pid) / "root"
