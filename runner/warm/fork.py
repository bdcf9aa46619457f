"""A cold run's warm controller, forked from the cold client instead of started as an interpreter of its own.

Before the command does anything of its run, the client imports what the last runs taught the controller
(``preload.remembered_modules``: the run needs them anyway) and forks; the fork detaches (a second fork, a
session of its own, the root directory, none of the client's descriptors: a reader of the run's output sees its
end when the run ends) and becomes the warm controller with every module already loaded, so that its start costs
no imports competing with the run for the CPU. Its module state is what the imports left, nothing of the run's.

The run tells it on a socket pair whether it is wanted (``tell``): ``{"persist": SECONDS}`` once the run knows
it keeps its connections, ``{"stop": WHY}`` when it turned out not to; the channel's end without a word (the run
failed before, or was killed) stops it too. Until the run has ended it never ends for being idle. The run also
has it start the connection keeper (``start_keeper``): a fork of the controller has asyncssh imported already,
where a new interpreter would import it while the run's first connections wait.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import socket
import sys
import warnings
from pathlib import Path
from typing import Any

from runner.util.private_dir import KeeperPlaceError, checked_dir
from runner.warm.preload import import_ahead, preloadable, remembered_modules
from runner.warm.process import close_all_but, name_process

# Options after which a command runs nothing (it prints, checks or lists): no controller is forked for them.
NOTHING_RUN = frozenset(["-h", "--help", "--version", "--syntax-check", "--list-hosts", "--list-tasks", "--list-tags"])
# The forked controller's name (``/proc/PID/comm``, what ``ps -o comm`` and ``top`` show), and its command line
# with the directory it serves (``ps``, ``pgrep -f``), written over the client's that the fork kept.
PROCESS_NAME = "prov-warm"
# Whether the controller forked by this process had what the runs need imported before the fork (a list
# remembered by an earlier controller): only then is it ready at once to fork the keeper.
_ready = False


def fork_warm(argv: list[str]) -> socket.socket | None:
    """Fork this install's warm controller from the cold client before its run starts: the channel the run
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
            remembered = remembered_modules(directory)
            import_ahead(remembered, lambda: False)
        if not _single_threaded():
            return None
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()  # nothing buffered here may be written again by the fork
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # What is loaded now stays for both processes: frozen, neither one's collector walks (and so copies) it.
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            _detach(directory, theirs.fileno(), ours.fileno())
        theirs.close()
        os.waitpid(pid, 0)
        global _ready
        _ready = bool(remembered)
        return ours
    except OSError:
        return None
    finally:
        if collecting:
            gc.enable()


def tell(channel: socket.socket, message: dict[str, Any], fds: tuple[int, ...] = ()) -> bool:
    """Say ``message`` (with ``fds``) to the forked controller; False when it is gone (which is not the run's
    error: the run goes on without it)."""
    try:
        socket.send_fds(channel, [json.dumps(message).encode()], list(fds))
    except OSError:
        return False
    return True


def keep(channel: socket.socket, persist: float) -> None:
    """Tell the forked controller that it is wanted for ``persist`` idle seconds. When it was forked with nothing
    remembered to import (the first run after a reboot), the modules this run has loaded so far go with it, for
    it to import at the lowest priority while the run works, as a controller started anew would."""
    message: dict[str, Any] = {"persist": persist}
    if not _ready:
        message["modules"] = preloadable(list(sys.modules))
    tell(channel, message)


def start_keeper(directory: Path, persist: float, start_lock: int) -> bool:
    """Have the warm controller forked from this cold client start the connection keeper as a fork of its own
    (``start.start_ahead``'s way to start it; ``start_lock`` goes with it): False when this process forked none
    that is ready, and the keeper is to be started as an interpreter of its own."""
    from runner.warm import forked_warm

    channel = forked_warm()
    if channel is None or not _ready:
        return False
    return tell(channel, {"keeper": {"directory": str(directory), "persist": persist}}, (start_lock,))


def _single_threaded() -> bool:
    """Whether this process has only its main thread (an import may have started one, even outside Python): a
    fork copies only the thread that forks, and a lock another thread held would stay held in the controller."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _detach(directory: Path, origin: int, write_end: int) -> None:
    """The first fork: a session of its own, then the controller in a second fork, which no process waits for (it
    is nobody's child, and a run's workers never reap it). Never returns, and never prints."""
    try:
        os.close(write_end)
        os.setsid()
        if os.fork() == 0:
            _become_controller(directory, origin)
    finally:
        os._exit(0)


def _become_controller(directory: Path, origin: int) -> None:
    """The second fork: none of the client's descriptors (its stdout above all), then the controller serves until
    it ends. Never returns; a failure goes to its log, never to the run's terminal."""
    code = 0
    try:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        close_all_but({0, 1, 2, origin})
        name_process(PROCESS_NAME, f"{PROCESS_NAME} {directory}")
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
