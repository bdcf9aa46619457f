"""What a process forked from a command does to stand apart from it: close what it inherited, take a name."""

from __future__ import annotations

import contextlib
import os


def name_process(name: str, title: str = "") -> None:
    """This process's name as ``ps -o comm`` shows it (at most 15 bytes), and its command line as ``ps`` and
    ``pgrep -f`` show it: ``title``, or ``name``. A fork keeps the command line of the command it was forked from
    (``provisioning all -a 'sleep 33'``), which would make a daemon look like that command to whoever looks for
    it, long after the command ended."""
    with contextlib.suppress(OSError), open("/proc/self/comm", "w") as comm:
        comm.write(name)
    with contextlib.suppress(OSError, ValueError, IndexError):
        _overwrite_command_line(title or name)


def _overwrite_command_line(title: str) -> None:
    """Write ``title`` over the arguments the kernel shows as ``/proc/self/cmdline``, cut to their length and
    padded with NULs (the last byte NUL: the kernel then shows this area only). The interpreter copied its
    arguments at start (``sys.argv`` keeps them); nothing reads this memory after."""
    with open("/proc/self/stat", "rb") as stat:
        fields = stat.read().rsplit(b")", 1)[1].split()
    # After "pid (comm)", field 3 is fields[0]: arg_start and arg_end are fields 48 and 49 (proc(5)).
    start, end = int(fields[45]), int(fields[46])
    if end - start < 2:
        return
    text = title.encode(errors="replace")[: end - start - 1]
    with open("/proc/self/mem", "r+b", buffering=0) as memory:
        memory.seek(start)
        memory.write(text + b"\0" * (end - start - len(text)))


def close_all_but(kept: set[int]) -> None:
    """Close every descriptor not in ``kept`` (listed, not counted up to the limit, which may be a million)."""
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in kept:
            with contextlib.suppress(OSError):
                os.close(int(name))  # the listing's own descriptor is gone by then
