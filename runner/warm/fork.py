"""A cold run's warm controller, forked from the cold client instead of started as an interpreter of its own.

Before the command does anything of its run, the client imports what the last runs taught the controller
(``preload.remembered_modules``: the run needs them anyway) and forks; the fork detaches (a second fork, a
session of its own, the root directory, none of the client's descriptors: a reader of the run's output sees its
end when the run ends) and becomes the warm controller with every module already loaded, so that its start costs
no imports competing with the run for the CPU. Its module state is what the imports left, nothing of the run's.

The run tells it through a pipe whether it is wanted (``tell``): ``{"persist": SECONDS}`` once the run knows it
keeps its connections, ``{"stop": WHY}`` when it turned out not to; the pipe's end without a word (the run failed
before, or was killed) stops it too. Until the run has ended it never ends for being idle.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
import warnings
from typing import Any

from runner.util.private_dir import KeeperPlaceError, checked_dir
from runner.warm.preload import import_ahead, remembered_modules

# Options after which a command runs nothing (it prints, checks or lists): no controller is forked for them.
NOTHING_RUN = frozenset(["-h", "--help", "--version", "--syntax-check", "--list-hosts", "--list-tasks", "--list-tags"])
# The forked controller's name (``/proc/PID/comm``, what ``ps -o comm`` and ``top`` show): its command line stays
# the client's, which only a new interpreter could change.
PROCESS_NAME = "prov-warm"


def fork_warm(argv: list[str]) -> int | None:
    """Fork this install's warm controller from the cold client before its run starts: the descriptor the run
    tells it on (``tell``), or None when none was forked (the run's own choice, no safe directory, or threads
    that a fork would leave behind; the run then starts one as an interpreter of its own, ``control.start_warm``)."""
    if NOTHING_RUN.intersection(argv[: argv.index("--")] if "--" in argv else argv):
        return None
    try:
        directory = checked_dir()
    except (KeeperPlaceError, OSError):
        return None
    collecting = gc.isenabled()
    gc.disable()  # as a command's own start: its imports make few cycles
    try:
        with warnings.catch_warnings():
            # What an import warns of is not this run's to show (a warm run imports them in the controller too).
            warnings.simplefilter("ignore")
            import_ahead(remembered_modules(directory), lambda: False)
        if not _single_threaded():
            return None
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()  # nothing buffered here may be written again by the fork
        read_end, write_end = os.pipe()
        # What is loaded now stays for both processes: frozen, neither one's collector walks (and so copies) it.
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            _detach(directory, read_end, write_end)
        os.close(read_end)
        os.waitpid(pid, 0)
        return write_end
    except OSError:
        return None
    finally:
        if collecting:
            gc.enable()


def tell(fd: int, message: dict[str, Any]) -> None:
    """Say ``message`` to the forked controller (gone already, it hears nothing: that is not the run's error)."""
    with contextlib.suppress(OSError):
        os.write(fd, json.dumps(message).encode() + b"\n")


def _single_threaded() -> bool:
    """Whether this process has only its main thread (an import may have started one, even outside Python): a
    fork copies only the thread that forks, and a lock another thread held would stay held in the controller."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _detach(directory: Any, origin: int, write_end: int) -> None:
    """The first fork: a session of its own, then the controller in a second fork, which no process waits for (it
    is nobody's child, and a run's workers never reap it). Never returns, and never prints."""
    try:
        os.close(write_end)
        os.setsid()
        if os.fork() == 0:
            _become_controller(directory, origin)
    finally:
        os._exit(0)


def _become_controller(directory: Any, origin: int) -> None:
    """The second fork: none of the client's descriptors (its stdout above all), then the controller serves until
    it ends. Never returns; a failure goes to its log, never to the run's terminal."""
    code = 0
    try:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        _close_all_but({0, 1, 2, origin})
        with contextlib.suppress(OSError), open("/proc/self/comm", "w") as comm:
            comm.write(PROCESS_NAME)
        os.chdir("/")
        os.umask(0o077)
        from runner.warm.server import serve_forked

        serve_forked(directory, origin)
    except BaseException:
        code = 1
        with contextlib.suppress(BaseException):
            import traceback

            traceback.print_exc()  # stderr is the controller's log by now, or /dev/null
    finally:
        os._exit(code)


def _close_all_but(kept: set[int]) -> None:
    """Close every descriptor not in ``kept`` (listed, not counted up to the limit, which may be a million)."""
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in kept:
            with contextlib.suppress(OSError):
                os.close(int(name))  # the listing's own descriptor is gone by then
