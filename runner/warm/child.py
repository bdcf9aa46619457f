"""A run in a child of the warm controller: made into the process the client would have been (its descriptors,
working directory, environment, umask, command line and signal dispositions), then the command's own entry
point runs as in a cold start, and the exit code goes back through the controller.

The child has a session of its own: a signal meant for the controller never reaches a run, and a run has no
controlling terminal (a password prompt reads the terminal on its stdin, as ``getpass`` does without one).
"""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import sys
from typing import Any, NoReturn

from runner.warm import warm_wanted, wire
from runner.warm.entry import run_command
from runner.warm.preload import preloadable

STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def run_child(conn: socket.socket, fds: list[int], request: dict[str, Any], report_fd: int,
              controller_fds: list[int]) -> NoReturn:
    """Never returns: the child's end is ``os._exit`` with the command's exit code."""
    try:
        loaded = set(sys.modules)
        for fd in controller_fds:
            os.close(fd)
        os.setsid()
        _become_client(fds, request)
        reason = _declined(request)
        wire.send(conn, {"decline": reason} if reason else {"started": os.getpid()})
    except Exception as exc:
        _say(conn, {"decline": f"the warm controller could not take the run: {exc}"})
        os._exit(0)
    conn.close()
    if reason:
        os._exit(0)
    command = str(request["command"])
    code = _profiled(command) if os.environ.get("PROVISIONING_PROFILE_DIR") else run_command(command)
    try:
        report = {"persist": warm_wanted(), "modules": preloadable(name for name in sys.modules if name not in loaded)}
        os.write(report_fd, json.dumps(report).encode())
    except OSError:
        pass
    os._exit(code)


def _profiled(command: str) -> int:
    """Performance work: the run's own cProfile stats, in CPU time, where its workers write theirs
    (``PROVISIONING_PROFILE_DIR``, see ``runner.executor.pool``)."""
    import cProfile
    import time

    profiler = cProfile.Profile(time.process_time)
    try:
        return int(profiler.runcall(run_command, command))
    finally:
        profiler.dump_stats(os.path.join(os.environ["PROVISIONING_PROFILE_DIR"], f"run-{os.getpid()}.prof"))


def _say(conn: socket.socket, message: dict[str, Any]) -> None:
    try:
        wire.send(conn, message)
    except OSError:
        pass


def _become_client(fds: list[int], request: dict[str, Any]) -> None:
    for target, fd in enumerate(fds):
        os.dup2(fd, target)  # inheritable: the run's workers and the commands it starts get them too
    for fd in fds:
        os.close(fd)
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update({str(name): str(value) for name, value in request["env"].items()})
    os.umask(int(request["umask"]))
    ignored = set(request.get("ignored") or ())
    for signum in STOPPING_SIGNALS:
        if signum in ignored:
            signal.signal(signum, signal.SIG_IGN)
        else:
            signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
    sys.argv = [str(word) for word in request["argv"]]
    sys.path[0] = str(request["path0"])
    _reopen_streams()


def _reopen_streams() -> None:
    """Python's standard streams already write to descriptors 0, 1 and 2, now the client's, with the client's
    encodings (its locale is the controller's, or it would not have been served); stdout is line-buffered on a
    terminal, as the interpreter makes it at start."""
    assert isinstance(sys.stdout, io.TextIOWrapper)
    sys.stdout.reconfigure(line_buffering=os.isatty(1))


def _declined(request: dict[str, Any]) -> str | None:
    """Why this run should not be served warm: the configuration in its directory keeps nothing (``persist =
    0``), so the run is what a cold one is, started afresh."""
    from runner.config.load import load_config

    try:
        persist = load_config().persist
    except Exception:
        return None  # the command reports a broken configuration itself
    return "persist is 0" if not persist else None
