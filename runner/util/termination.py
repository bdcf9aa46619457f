"""Being told to stop: Ctrl-C (SIGINT), SIGTERM (a service manager, ``kill``, a CI job's timeout) and SIGHUP (the
terminal went away) all stop a command the same way: agents end what they started and remove their temp files,
workers exit, and the command exits with 99 for Ctrl-C (Ansible's code), 128 + the signal's number for the
others (143, 129), the code a shell reports for a process those signals ended.

A signal that was ignored when the command started stays ignored: ``nohup`` keeps a run going after a hangup.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

from runner.errors import ExitCode

STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Terminated(BaseException):
    """Raised in the main thread by SIGTERM or SIGHUP outside a run's event loop (while loading or compiling), as
    Ctrl-C raises ``KeyboardInterrupt``: a BaseException, so that no ``except Exception`` holds it up."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return exit_code_for_signal(self.signum)

    @property
    def message(self) -> str:
        return stop_message(self.signum)


def exit_code_for_signal(signum: int) -> int:
    """99 for Ctrl-C, as Ansible exits; 128 + the number for any other signal (SIGTERM 143, SIGHUP 129)."""
    return int(ExitCode.INTERRUPTED) if signum == signal.SIGINT else 128 + signum


def stop_message(signum: int) -> str:
    """The line printed when ``signum`` stops a command."""
    if signum == signal.SIGINT:
        return "[ERROR]: User interrupted execution"
    return f"[ERROR]: Terminated by {signal.Signals(signum).name}: stopped the run"


def watched_signals() -> list[int]:
    """The stopping signals this process reacts to: those not ignored when it started."""
    return [signum for signum in STOPPING_SIGNALS if signal.getsignal(signum) is not signal.SIG_IGN]


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated(signum)


@contextlib.contextmanager
def raising_on_termination() -> Iterator[None]:
    """SIGTERM and SIGHUP raise ``Terminated`` in the main thread while the body runs (SIGINT keeps raising
    ``KeyboardInterrupt``); the previous handlers come back afterwards."""
    previous: dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set signal handlers (a caller running a command in a thread)
        return
    for signum in watched_signals():
        if signum != signal.SIGINT:
            previous[signum] = signal.signal(signum, _raise_terminated)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
