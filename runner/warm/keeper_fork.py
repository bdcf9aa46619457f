"""The connection keeper started as a fork of the warm controller, for the cold run that forked the controller.

The keeper started as an interpreter of its own imports asyncssh and its cryptography (~0.2 s of CPU, more of
wall time under load) while the run's first connections wait for it. The controller forked from the cold client
has them imported already, so a fork of it listens and connects at once. The fork keeps nothing of the
controller's (its descriptors are closed: the controller's lock above all, which would otherwise outlive the
controller; its signal handlers are the interpreter's again) and then starts as ``python -m
runner.connection.keeper.daemon`` would, forking into the background itself.
"""

from __future__ import annotations

import contextlib
import os
import signal

from runner.warm.process import close_all_but, name_process

# Its name (``/proc/PID/comm``); its command line is its name and directory, written over the cold client's.
PROCESS_NAME = "prov-keeper"


def fork_keeper(directory: str, persist: float, start_lock: int) -> None:
    """Start the keeper for ``directory`` with ``persist``; ``start_lock`` goes with it, held until it listens.
    Returns once the fork has gone into the background (it forks again at once)."""
    pid = os.fork()
    if pid == 0:
        _become_keeper(directory, persist, start_lock)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def _become_keeper(directory: str, persist: float, start_lock: int) -> None:
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)  # where the daemon says it is ready to the one that started it: nobody reads it here
        close_all_but({0, 1, 2, start_lock})  # 2 stays the controller's log until the keeper opens its own
        name_process(PROCESS_NAME, f"{PROCESS_NAME} {directory}")
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.SIG_DFL)
        from runner.connection.keeper.daemon import main

        code = main([directory, repr(persist), str(start_lock)])
    except BaseException:
        with contextlib.suppress(BaseException):
            import traceback

            traceback.print_exc()
    finally:
        os._exit(code)
