"""Finding this user's keeper, starting one when none answers, asking what it holds, and stopping it.

These run in the controller (and in ``provisioning-config``), with plain blocking sockets: a few exchanges before
the run's event loop exists.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from runner.connection.keeper import KeeperAddress
from runner.connection.keeper.place import (
    SOCKET_PATTERN,
    boot_id,
    build_of,
    checked_dir,
    keeper_dir,
    lock_name,
    socket_name,
    start_lock_name,
)
from runner.connection.keeper.wire import MESSAGE_HEADER, build_id, encode_message
from runner.util.private_dir import peer_uid

START_TIMEOUT = 15.0
ANSWER_TIMEOUT = 5.0


class KeeperStartError(Exception):
    """The keeper could not be started (the run then connects directly)."""


def _exchange(path: Path, message: dict[str, Any]) -> dict[str, Any] | None:
    """One request to the keeper at ``path`` and its reply; None when nothing of this user answers there."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(ANSWER_TIMEOUT)
            sock.connect(str(path))
            if peer_uid(sock) != os.getuid():
                return None
            sock.sendall(encode_message(message))
            reader = sock.makefile("rb")
            head = reader.read(MESSAGE_HEADER.size)
            if len(head) < MESSAGE_HEADER.size:
                return None
            import json

            reply = json.loads(reader.read(MESSAGE_HEADER.unpack(head)[0]))
    except (OSError, ValueError):
        return None
    return reply if isinstance(reply, dict) else None


def keeper_status(directory: Path | None = None) -> dict[str, Any] | None:
    """What the running keeper says of itself (pid, persist, connections), or None when none runs."""
    directory = directory or keeper_dir()
    if not directory.exists():
        return None
    checked_dir(directory, create=False)
    hello = _exchange(directory / socket_name(build_id()), {"op": "hello"})
    return hello if hello is not None and _ours(hello) else None


def stop_keeper(directory: Path | None = None) -> bool:
    """End every keeper of this user, whatever build it is (each closes its connections; their agents exit);
    False when none was running."""
    directory = directory or keeper_dir()
    if not directory.exists():
        return False
    checked_dir(directory, create=False)
    stopped = False
    for path in sorted(directory.glob(SOCKET_PATTERN)):
        if _exchange(path, {"op": "stop"}) is not None:
            stopped = True
            _wait_gone(directory / lock_name(build_of(path.name)))
    return stopped


def ensure_keeper(persist: float, directory: Path | None = None) -> KeeperAddress:
    """The address of this user's keeper, started if none answers. Raises ``KeeperPlaceError`` for an unsafe
    directory and ``KeeperStartError`` when the keeper does not start."""
    directory = checked_dir(directory)
    path = directory / socket_name(build_id())
    hello = _exchange(path, {"op": "hello", "persist": persist})
    if hello is None or not _ours(hello):
        # One starter at a time: a run's workers each look for the keeper at their first connection, all at
        # once, and each would otherwise start a daemon (an interpreter importing the keeper) only for all but
        # one to find the lock taken. The others wait here, then find the one started.
        with _starting(directory):
            hello = _exchange(path, {"op": "hello", "persist": persist})
            if hello is not None and not _ours(hello):
                _exchange(path, {"op": "stop"})  # of an earlier boot, or answering for another user: replace it
                _wait_gone(directory / lock_name(build_id()))
                hello = None
            if hello is None:
                _spawn(directory, persist)
                hello = _exchange(path, {"op": "hello", "persist": persist})
    if hello is None or not _ours(hello):
        raise KeeperStartError(f"the connection keeper did not answer on {path}")
    return KeeperAddress(path, persist, bytes.fromhex(hello["salt"]))


_ahead: subprocess.Popen[bytes] | None = None


def start_ahead(persist: float, directory: Path | None = None,
                fork: Callable[[Path, float, int], bool] | None = None) -> None:
    """Start this user's keeper now, without waiting for it, when none answers and nobody is starting one: a run
    that will connect over SSH calls this before it compiles its playbook, so that the keeper's interpreter and
    imports overlap the compile instead of delaying the run's first connection. The start lock goes with the
    keeper, which lets go of it once it listens: a worker that looks for the keeper meanwhile (``ensure_keeper``)
    waits for this one rather than starting another. ``fork``: another way to start it, given the directory, the
    persist and the start lock, which says whether it did (a warm controller forked from the cold run starts it
    as a fork of its own, with asyncssh imported already). Raises ``KeeperPlaceError`` for an unsafe directory."""
    global _ahead
    directory = checked_dir(directory)
    lock = os.open(directory / start_lock_name(build_id()), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return  # being started by another run
        if _exchange(directory / socket_name(build_id()), {"op": "hello", "persist": persist}) is not None:
            return  # one answers (another build's, or another boot's, is ensure_keeper's to replace)
        if fork is not None and fork(directory, persist, lock):
            return
        with contextlib.suppress(OSError):
            # Never waited for here: it ends as soon as the keeper has forked into the background, and a run ends
            # without the interpreter's teardown, so the reference kept only spares a warning.
            _ahead = subprocess.Popen([sys.executable, "-m", "runner.connection.keeper.daemon", str(directory),
                                       str(persist), str(lock)], pass_fds=[lock], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    finally:
        os.close(lock)  # the keeper holds it (the same open file) until it listens, or until it fails


@contextlib.contextmanager
def _starting(directory: Path) -> Iterator[None]:
    """Held while this process looks for this build's keeper again and starts it when it is missing (a lock of
    its own: the keeper's is held by the keeper for as long as it runs)."""
    lock = os.open(directory / start_lock_name(build_id()), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
    finally:
        os.close(lock)


def _ours(hello: dict[str, Any]) -> bool:
    return (hello.get("version") == build_id() and hello.get("boot_id") == boot_id()
            and hello.get("uid") == os.getuid() and isinstance(hello.get("salt"), str))


def _spawn(directory: Path, persist: float) -> None:
    """Start the keeper and wait until it listens (it binds its socket before loading what it serves with)."""
    try:
        started = subprocess.run([sys.executable, "-m", "runner.connection.keeper.daemon", str(directory),
                                  str(persist)], stdin=subprocess.DEVNULL, capture_output=True,
                                 timeout=START_TIMEOUT, check=False, start_new_session=True)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise KeeperStartError(f"the connection keeper did not start: {exc}") from None
    if started.returncode != 0 or not started.stdout:
        detail = started.stderr.decode(errors="replace").strip().splitlines()
        raise KeeperStartError("the connection keeper did not start"
                               + (f": {detail[-1]}" if detail else f" (exit code {started.returncode})"))


def _wait_gone(lock_path: Path, timeout: float = START_TIMEOUT) -> None:
    """Wait until no keeper holds ``lock_path`` (one that was told to stop has closed its connections)."""
    deadline = time.monotonic() + timeout
    with contextlib.suppress(OSError):
        lock = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            while time.monotonic() < deadline:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(lock, fcntl.LOCK_UN)
                    return
                except BlockingIOError:
                    time.sleep(0.05)
        finally:
            os.close(lock)
