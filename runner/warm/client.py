"""The console scripts ``provisioning-playbook`` and ``provisioning``: served by this user's warm controller
when one answers, else run here as before.

This module imports almost nothing (the standard library's socket, json and signal, and the private directory's
check): a run served warm costs the interpreter's start and this, not the controller's imports
(``python -X importtime -m runner.warm.client`` shows it; ``tests/unit/warm/test_client_imports.py`` pins it).
"""

from __future__ import annotations

import os
import signal
import socket
import sys

from runner.util.private_dir import KeeperPlaceError, check_path, keeper_path, peer_uid
from runner.warm import wire
from runner.warm.place import socket_name

TYPE_CHECKING = False  # typing's, without importing typing (nor pathlib): see the module's docstring
if TYPE_CHECKING:
    from typing import Any, NoReturn

STOPPING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Exit code when the warm controller went away before the run's end (killed): "an internal error", as a
# controller that crashed would exit.
LOST_CODE = 250


def playbook() -> None:
    _main("playbook")


def adhoc() -> None:
    _main("adhoc")


def _main(command: str) -> None:
    code = _served_warm(command)
    if code is None:
        _run_cold(command)
    sys.exit(code)


def _run_cold(command: str) -> NoReturn:
    """The command in this process, as it always ran; first a warm controller for the next run is forked from
    this process (``runner.warm.fork``), which the run keeps when it keeps its connections
    (``runner.warm.keep_warm``) and tells at the end what it imported, and stops otherwise. The process then ends
    as a warm controller's run does (``runner.warm.entry``), without the interpreter's teardown."""
    from runner.warm import forked_warm, starting_cold, warm_started, warm_wanted
    from runner.warm.entry import run_command
    from runner.warm.fork import fork_warm, tell

    # Forked before anything of the run is done: the controller holds the modules, none of the run's state.
    starting_cold(None if _kept_nothing(sys.argv[1:]) else fork_warm(sys.argv[1:]))
    code = run_command(command)
    forked = forked_warm()
    if forked is not None and not warm_wanted():
        tell(forked, {"stop": "the run that started it keeps nothing"})
    if warm_wanted():
        from runner.warm.control import teach_warm
        from runner.warm.preload import preloadable

        teach_warm(preloadable(list(sys.modules)))
        if warm_started():
            from runner.warm.control import wait_warm_ready

            wait_warm_ready()
    os._exit(code)


def _kept_nothing(argv: list[str]) -> bool:
    """``PROVISIONING_PERSIST=0`` or ``--persist 0``: the run keeps nothing, so it starts cold as asked."""
    values = [os.environ.get("PROVISIONING_PERSIST")]
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--persist" and index + 1 < len(argv):
            values.append(argv[index + 1])
        elif word.startswith("--persist="):
            values.append(word.partition("=")[2])
    for value in values:
        try:
            if value is not None and float(value) <= 0:
                return True
        except ValueError:
            return True  # not a number: the cold run says so
    return False


def _connect() -> socket.socket | None:
    """A connection to this install's warm controller, checked to be this user's; None when there is none."""
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)  # a closed stdin, stdout or stderr: nothing to hand over, the run starts here
        directory = keeper_path()
        check_path(directory, create=False)
    except (OSError, KeeperPlaceError):
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(os.path.join(directory, socket_name()))
        if peer_uid(sock) == os.getuid():
            return sock
    except OSError:
        pass
    sock.close()
    return None


def _served_warm(command: str) -> int | None:
    """The run's exit code when the warm controller served it; None when it was not (the run starts here)."""
    if _kept_nothing(sys.argv[1:]):
        return None
    sock = _connect()
    if sock is None:
        return None
    with sock:
        forwarding = _Forwarding(sock)
        try:
            wire.send(sock, _request(command, forwarding.ignored), [0, 1, 2])
            reply = wire.receive(sock)
            if reply is None or "started" not in reply:
                forwarding.undo()
                return None
            forwarding.start()
            while (message := wire.receive(sock)) is not None:
                if "exit" in message:
                    return int(message["exit"])
                if "killed" in message:
                    forwarding.undo()
                    _end_by_signal(int(message["killed"]))
        except (OSError, wire.WireError):
            forwarding.undo()
            return None if not forwarding.started else _lost()
    return _lost()


def _request(command: str, ignored: list[int]) -> dict[str, Any]:
    umask = os.umask(0)
    os.umask(umask)
    return {"op": "run", "command": command, "argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ),
            "umask": umask, "ignored": ignored, "path0": sys.path[0]}


class _Forwarding:
    """Ctrl-C, SIGTERM and SIGHUP to the client go to the run; one that comes before the run has started waits
    for it (or, when the run is not served, is re-raised here)."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.started = False
        self.pending: list[int] = []
        self.previous: dict[int, Any] = {}
        self.ignored = []
        for signum in STOPPING_SIGNALS:
            if signal.getsignal(signum) is signal.SIG_IGN:
                self.ignored.append(int(signum))  # nohup's SIGHUP stays ignored in the run too
            else:
                self.previous[signum] = signal.signal(signum, self._caught)

    def _caught(self, signum: int, frame: Any) -> None:
        if self.started:
            try:
                wire.send(self.sock, {"signal": signum})
            except OSError:
                pass
        else:
            self.pending.append(signum)

    def start(self) -> None:
        self.started = True
        for signum in self.pending:
            wire.send(self.sock, {"signal": signum})
        self.pending.clear()

    def undo(self) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous.clear()
        for signum in self.pending:
            signal.raise_signal(signum)


def _end_by_signal(signum: int) -> None:
    """The run was ended by a signal it did not handle (SIGKILL, say): this process ends by it too, so whoever
    waits for it sees what it would have seen."""
    sys.stdout.flush()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
    sys.exit(128 + signum)


def _lost() -> int:
    sys.stderr.write("ERROR! the warm controller ended before the run did (see persist-status)\n")
    return LOST_CODE
