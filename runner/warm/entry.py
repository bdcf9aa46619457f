"""Running a command's entry point in this process and ending the process without the interpreter's teardown.

A cold run (the client running the command itself) and a run in a warm controller's child end the same way: what
the interpreter does at exit that a run can see — other threads joined, ``atexit`` functions, the standard streams
flushed — and then ``os._exit``. What is skipped is freeing every object and module one by one: with a run's
modules and heap loaded, that took 0.1 to 0.4 s of CPU at the end of every cold run, which nothing waits for.
"""

from __future__ import annotations

import atexit
import importlib
import os
import signal
import sys
import threading
import traceback

from runner.warm import COMMANDS


def run_command(command: str) -> int:
    """Run ``command``'s entry point (``COMMANDS``) as the interpreter would run a console script, up to its exit:
    the exit code, after other threads have ended, the ``atexit`` functions have run and the streams are flushed
    (120 when stdout could not be, as the interpreter exits)."""
    module, function = COMMANDS[command].split(":")
    code: int
    try:
        getattr(importlib.import_module(module), function)()
        code = 0
    except SystemExit as exc:
        code = _exit_code(exc.code)
    except KeyboardInterrupt:
        # As the interpreter does with a Ctrl-C nothing caught: the traceback, then ended by the signal itself.
        traceback.print_exc()
        _flush()
        _at_exit()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
        code = 128 + signal.SIGINT
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    _at_exit()
    return 120 if not _flush() and code == 0 else code


def _at_exit() -> None:
    """What the interpreter's exit does first: wait for the threads that are not daemons, then the ``atexit``
    functions."""
    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None and threading.current_thread() is threading.main_thread():
        shutdown()
    atexit._run_exitfuncs()


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def _flush() -> bool:
    """Flush the streams, as the interpreter does at exit; False when stdout could not be (a closed pipe)."""
    ok = True
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            ok = ok and stream is not sys.stdout
    return ok
