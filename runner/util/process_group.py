"""A worker's own process group: what it starts joins it, so an interrupted run can end all of it, and nothing else.

A worker leads a session of its own (``setsid``, as ansible-core's workers do). The processes it starts on the
controller (a ``pipe`` lookup's shell and its children, a subprocess of an Ansible connection or action plugin)
inherit its process group unless they leave it, so one signal to the group reaches every one of them, however
deep, without the worker keeping a list. Nothing outside the run is in that group: not the shell's job (the
command's own group, which may hold the other commands of a pipeline), not the keeper or the warm controller
(sessions of their own), not another run's workers. The local connection's agents lead sessions of their own too
and are stopped through their channels, as remote ones are.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

_PROC = Path("/proc")
_POLL_SECONDS = 0.05


def lead_own_session() -> None:
    """Make this process the leader of a new session and process group (its pgid is then its pid)."""
    os.setsid()


def signal_own_group(signum: int) -> None:
    """``signum`` to every process of this process's group, itself included (its handler must expect it)."""
    try:
        os.killpg(os.getpgrp(), signum)
    except OSError:
        pass  # nothing to signal any more


def others_in_group() -> list[int]:
    """The live processes of this process's group other than itself (zombies hold nothing), as /proc shows them;
    an empty list where there is no /proc to read."""
    if not sys.platform.startswith("linux"):
        return []
    own_pid, own_group = os.getpid(), os.getpgrp()
    found = []
    for entry in _PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == own_pid:
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended while being read
        # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after its last ")".
        state, _, group = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(group) == own_group and state != "Z":
            found.append(int(entry.name))
    return found


def end_own_group(grace: float) -> None:
    """SIGTERM to the rest of this process's group (the caller ignores or handles it), then, for what is still
    there after ``grace`` seconds, SIGKILL to the whole group: this process included, so only a process about to
    exit may call this."""
    signal_own_group(signal.SIGTERM)
    deadline = time.monotonic() + grace
    while others_in_group():
        if time.monotonic() >= deadline:
            signal_own_group(signal.SIGKILL)
        time.sleep(_POLL_SECONDS)
