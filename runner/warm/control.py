"""Starting this install's warm controller after a cold run, asking it what it is, and stopping it; these run in
the commands (``provisioning-config persist-status`` and ``persist-stop``, ``provisioning-testenv status``)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from runner.util.private_dir import checked_dir, keeper_dir, peer_uid
from runner.warm import wire
from runner.warm.place import socket_path

ANSWER_TIMEOUT = 5.0
# How long a cold run's end waits for the warm controller it started to be ready (wait_warm_ready).
READY_WAIT = 2.0
STOP_TIMEOUT = 15.0


def start_warm(persist: float, script_dir: str, modules: list[str]) -> None:
    """Start the warm controller in the background (it outlives this process), told which modules to import
    besides those it remembers: ``modules``, what the cold run that starts it has loaded so far. Nothing is
    waited for: a run finds it, or runs cold when it is not there yet; a second one ends at once."""
    try:
        directory = checked_dir()
        server = subprocess.Popen([sys.executable, "-m", "runner.warm.server", str(directory), str(persist),
                                   script_dir], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, cwd="/", start_new_session=True)
    except Exception:
        return  # no warm controller: every run stays cold, as without one
    with contextlib.suppress(OSError), server.stdin as stdin:  # type: ignore[union-attr]
        stdin.write(json.dumps(modules).encode())
    server.returncode = 0  # it is detached: never waited for, and not worth a warning at exit


def teach_warm(modules: list[str]) -> None:
    """Tell this install's warm controller the modules a cold run imported (it imports them when it is free);
    no answer is awaited."""
    with contextlib.suppress(Exception):
        _exchange(checked_dir(create=False), {"op": "learn", "modules": modules}, answered=False)


def wait_warm_ready() -> None:
    """Wait (asleep, at most ``READY_WAIT`` seconds) until the warm controller this cold run started has
    imported what the runs need: it answers only then. A run started right after this one (a script running
    two playbooks) is then served at once, and the wait costs no CPU, which the controller's imports have to
    themselves; it ended the same way before, when this process spent that time freeing its heap."""
    with contextlib.suppress(Exception):
        _exchange(checked_dir(create=False), {"op": "hello"}, timeout=READY_WAIT)


def _exchange(directory: Path, message: dict[str, Any], *, answered: bool = True,
              timeout: float = ANSWER_TIMEOUT) -> dict[str, Any] | None:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(str(socket_path(directory)))
            if peer_uid(sock) != os.getuid():
                return None
            wire.send(sock, message)
            return wire.receive(sock) if answered else None
    except (OSError, wire.WireError):
        return None


def warm_status(directory: Path | None = None) -> dict[str, Any] | None:
    """What this install's warm controller says of itself (pid, persist, runs served, runs going), or None."""
    directory = directory or keeper_dir()
    if not directory.exists():
        return None
    checked_dir(directory, create=False)
    return _exchange(directory, {"op": "hello"})


def stop_warm(directory: Path | None = None) -> bool:
    """End this install's warm controller (runs it is serving finish first); False when none was running."""
    directory = directory or keeper_dir()
    if not directory.exists():
        return False
    checked_dir(directory, create=False)
    reply = _exchange(directory, {"op": "stop"})
    if reply is None:
        return False
    if not reply.get("running"):
        _wait_gone(int(reply["pid"]))
    return True


def _wait_gone(pid: int) -> None:
    deadline = time.monotonic() + STOP_TIMEOUT
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z"):
                return  # ended, waiting for its parent to reap it
        time.sleep(0.02)


def warm_lines() -> list[str]:
    """What ``persist-status`` prints of the warm controller."""
    status = warm_status()
    if status is None:
        return [f"no warm controller running (socket directory {keeper_dir()})"]
    return [f"warm controller pid {status['pid']} at {socket_path(keeper_dir())}, persist {status['persist']:g} s, "
            f"{status['served']} run(s) served, {status['running']} running"]
