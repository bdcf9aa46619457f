"""What a process forked from a command does to stand apart from it: close what it inherited, take a name."""

from __future__ import annotations

import contextlib
import os


def name_process(name: str) -> None:
    """This process's name as ``ps -o comm`` shows it (at most 15 bytes)."""
    with contextlib.suppress(OSError), open("/proc/self/comm", "w") as comm:
        comm.write(name)


def close_all_but(kept: set[int]) -> None:
    """Close every descriptor not in ``kept`` (listed, not counted up to the limit, which may be a million)."""
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in kept:
            with contextlib.suppress(OSError):
                os.close(int(name))  # the listing's own descriptor is gone by then
