"""The warm controller: a background process of one user, for one install, holding an interpreter that has
imported what a run needs, forking a child per run (``child.py``).

Forked from a cold run's client before its run starts (``fork.py``: it has then imported what the runs need already,
``serve_forked``), or started by ``control.start_warm`` as ``python -m runner.warm.server DIR PERSIST SCRIPT_DIR``
(the modules to import on its stdin) in a session of its own. It takes its lock (one controller per install), binds
its socket in the user's private directory (0600, in the 0700 directory ``checked_dir`` vouches for), imports ahead,
and serves. Every client is checked with SO_PEERCRED: a process of another user is turned away before it says
anything. A run request whose install fingerprint or Python settings differ from the controller's is answered
``stale``, and the controller ends (the client runs cold and starts a fresh one). After ``persist`` seconds with no
run, or when told to stop (``provisioning-config persist-stop``, SIGTERM), it ends once the runs it serves have; a
reboot ends it with everything else, and its socket file, if one is left, answers nobody.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import json
import os
import select
import selectors
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.util.private_dir import boot_id, checked_dir, peer_uid
from runner.warm import wire
from runner.warm.keeper_fork import fork_keeper
from runner.warm.place import lock_path, log_path, socket_path
from runner.warm.preload import import_ahead, remember_modules, remembered_modules
from runner.warm.sources import install_fingerprint, interpreter_environment

CHECK_INTERVAL = 1.0
ANSWER_TIMEOUT = 5.0
FORWARDED_SIGNALS = frozenset([signal.SIGINT, signal.SIGTERM, signal.SIGHUP])


@dataclass(eq=False)
class Run:
    """A run being served: its child, the client's connection (None once the client has gone), and what the
    child reports at its end."""

    pid: int
    pidfd: int
    conn: socket.socket | None
    report_fd: int | None
    report: bytearray = field(default_factory=bytearray)


class WarmController:
    def __init__(self, directory: Path, listener: socket.socket, lock: int, persist: float,
                 origin: socket.socket | None = None):
        self.directory = directory
        # Forked from a cold run (``fork.py``): the channel that run tells it on, until the run ends; whether it
        # has been told it is wanted. Started on its own, it is wanted from the start.
        self.origin = origin
        self.wanted = origin is None
        self.listener = listener
        self.lock: int | None = lock
        self.persist = persist
        self.socket_inode = os.stat(socket_path(directory)).st_ino
        self.fingerprint = install_fingerprint()
        self.environment = interpreter_environment(os.environ)
        self.selector = selectors.DefaultSelector()
        self.runs: dict[int, Run] = {}
        self.served = 0
        self.last_used = time.monotonic()
        self.stopping = False
        self.to_import: list[str] = []
        self.known: dict[str, None] = dict.fromkeys(sys.modules)  # an ordered set: the order they were imported in

    # -- the loop ------------------------------------------------------------------------------------------
    def serve(self, modules: list[str]) -> None:
        for signum in FORWARDED_SIGNALS:
            signal.signal(signum, lambda signum, frame: self.stop(f"signal {signum}"))
        remembered = remembered_modules(self.directory)
        self.known.update(dict.fromkeys(remembered + modules))
        self._import(list(self.known))
        self.selector.register(self.listener, selectors.EVENT_READ, self._accept)
        if self.origin is not None:
            self.selector.register(self.origin, selectors.EVENT_READ, self._origin_said)
        while not (self.stopping and not self.runs):
            for key, _events in self.selector.select(CHECK_INTERVAL):
                key.data(key.fileobj)
            if self.to_import and not self.runs and not self.stopping:
                self._import(self.to_import)
                self.to_import = []
            if not self.runs and not self.stopping and self.origin is None and \
                    time.monotonic() - self.last_used >= self.persist:
                self.stop(f"idle for {self.persist:g} s")
        _log("ended")

    def _import(self, modules: list[str]) -> None:
        """Import ``modules`` ahead: first in a thread of the lowest priority, so that a cold run working beside
        (the one that started this controller) loses no CPU to it; at full speed once that run has ended or a
        run waits. The thread has ended before any run is forked."""
        started = time.monotonic()
        self.known.update(dict.fromkeys(modules))
        urgent = threading.Event()
        imported = [0]

        def unhurried() -> None:
            # The nice value is the thread's own on Linux: the main thread, which forks the runs, keeps its own.
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
            imported[0] = import_ahead(modules, lambda: self.stopping or urgent.is_set())

        thread = threading.Thread(target=unhurried, name="import-ahead", daemon=True)
        parent = os.getppid()
        thread.start()
        while thread.is_alive():
            thread.join(0.05)
            if not urgent.is_set() and (os.getppid() != parent or self._origin_ended() or self._run_waiting()):
                urgent.set()
        count = imported[0] + import_ahead(modules, lambda: self.stopping)
        # What is imported stays as it is: frozen, the collector never walks (and so never writes to) the
        # pages every child shares with this process.
        gc.collect()
        gc.freeze()
        _log(f"imported {count} modules ahead in {time.monotonic() - started:.2f} s")

    def _origin_ended(self) -> bool:
        """Whether the cold run that forked this controller has ended (its pipe has no writer left)."""
        if self.origin is None:
            return False
        poll = select.poll()
        poll.register(self.origin.fileno(), select.POLLIN)
        return any(events & select.POLLHUP for _fd, events in poll.poll(0))

    def _run_waiting(self) -> bool:
        if self.stopping:
            return False
        return bool(select.select([self.listener], [], [], 0)[0])

    def stop(self, why: str) -> None:
        """Take no more runs: the socket goes (a new controller may bind it at once), the runs served finish."""
        if self.stopping:
            return
        self.stopping = True
        _log(f"stopping: {why}")
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(self.listener)
        self.listener.close()
        with contextlib.suppress(OSError):
            if os.stat(socket_path(self.directory)).st_ino == self.socket_inode:
                os.unlink(socket_path(self.directory))
        if self.lock is not None:
            os.close(self.lock)
            self.lock = None

    # -- the cold run that forked it ------------------------------------------------------------------------
    def _origin_said(self, _fd: Any) -> None:
        """What the cold run says (``fork.tell``): wanted for ``persist`` idle seconds, or not wanted, or start
        the keeper; its end without having said it is wanted (it failed first, or was killed) stops this
        controller too."""
        assert self.origin is not None
        try:
            data, fds, _flags, _address = socket.recv_fds(self.origin, 1 << 22, 1)
        except OSError:
            data, fds = b"", []
        try:
            message = json.loads(data) if data else {}
            if not isinstance(message, dict):
                message = {}
        except ValueError:
            message = {}
        try:
            if isinstance(message.get("persist"), (int, float)) and message["persist"] > 0:
                self.persist, self.wanted = float(message["persist"]), True
                self._learn(message.get("modules") or ())
            elif "stop" in message:
                self.stop(str(message["stop"]))
            elif isinstance(message.get("keeper"), dict) and len(fds) == 1:
                keeper = message["keeper"]
                fork_keeper(str(keeper["directory"]), float(keeper["persist"]), fds[0])
        except (KeyError, TypeError, ValueError, OSError) as exc:
            _log(f"the cold run said what this controller cannot do: {exc!r}")
        finally:
            for fd in fds:
                os.close(fd)
        if not data:
            self.selector.unregister(self.origin)
            self.origin.close()
            self.origin = None
            self.last_used = time.monotonic()  # idle from the end of the run that started it
            if not self.wanted:
                self.stop("the run that started it ended without keeping its connections")

    # -- requests ------------------------------------------------------------------------------------------
    def _accept(self, listener: Any) -> None:
        try:
            conn, _address = self.listener.accept()
        except OSError:
            return
        if peer_uid(conn) != os.getuid():
            conn.close()  # another user's process: not a word
            return
        conn.settimeout(ANSWER_TIMEOUT)
        fds: list[int] = []
        try:
            request, fds = wire.receive_with_fds(conn)
            if request is not None and self._answer(conn, request, fds):
                return  # the run's connection stays open until its end
        except (OSError, wire.WireError) as exc:
            _log(f"client dropped: {exc}")
        finally:
            for fd in fds:
                os.close(fd)
        conn.close()

    def _answer(self, conn: socket.socket, request: dict[str, Any], fds: list[int]) -> bool:
        """Answer one request; True when it started a run (whose connection then stays open)."""
        op = request.get("op")
        self.last_used = time.monotonic()
        if op == "hello":
            wire.send(conn, self._hello())
        elif op == "stop":
            wire.send(conn, {"ok": True, "pid": os.getpid(), "running": len(self.runs)})
            self.stop("told to")
        elif op == "run":
            return self._start_run(conn, request, fds)
        elif op == "learn":
            self._learn(request.get("modules") or ())
        else:
            wire.send(conn, {"error": f"unknown request {op!r}"})
        return False

    def _hello(self) -> dict[str, Any]:
        return {"pid": os.getpid(), "uid": os.getuid(), "boot_id": boot_id(), "persist": self.persist,
                "served": self.served, "running": len(self.runs)}

    def _start_run(self, conn: socket.socket, request: dict[str, Any], fds: list[int]) -> bool:
        if self.stopping or len(fds) != 3:
            wire.send(conn, {"decline": "the warm controller is stopping" if self.stopping
                             else "the run's stdin, stdout and stderr did not come"})
            return False
        if install_fingerprint() != self.fingerprint:
            wire.send(conn, {"stale": "the installed code has changed"})
            self.stop("the installed code has changed")
            return False
        if interpreter_environment(request.get("env") or {}) != self.environment:
            wire.send(conn, {"stale": "the run's Python or locale settings differ"})
            self.stop("a run came with other Python or locale settings")
            return False
        report_read, report_write = os.pipe()
        own = [self.listener.fileno(), self.selector.fileno(), report_read,
               *([self.lock] if self.lock is not None else []),
               *([self.origin.fileno()] if self.origin is not None else []),
               *(fd for run in self.runs.values() for fd in (run.pidfd, run.report_fd) if fd is not None),
               *(run.conn.fileno() for run in self.runs.values() if run.conn is not None)]
        pid = os.fork()
        if pid == 0:
            from runner.warm.child import run_child

            run_child(conn, fds, request, report_write, own)
        os.close(report_write)
        run = Run(pid, os.pidfd_open(pid), conn, report_read)
        self.runs[pid] = run
        conn.setblocking(True)
        self.selector.register(run.pidfd, selectors.EVENT_READ, lambda _fd: self._ended(run))
        self.selector.register(conn, selectors.EVENT_READ, lambda _conn: self._client_said(run))
        self.selector.register(report_read, selectors.EVENT_READ, lambda _fd: self._read_report(run))
        return True

    # -- a run going on ------------------------------------------------------------------------------------
    def _client_said(self, run: Run) -> None:
        assert run.conn is not None
        try:
            message = wire.receive(run.conn)
        except (OSError, wire.WireError):
            message = None
        if message is None:
            # The client went (killed, or it runs cold after a decline): the run ends as when a terminal goes.
            self._drop_client(run)
            with contextlib.suppress(ProcessLookupError):
                os.kill(run.pid, signal.SIGTERM)
        elif message.get("signal") in FORWARDED_SIGNALS:
            with contextlib.suppress(ProcessLookupError):
                os.kill(run.pid, int(message["signal"]))

    def _drop_client(self, run: Run) -> None:
        if run.conn is not None:
            self.selector.unregister(run.conn)
            run.conn.close()
            run.conn = None

    def _read_report(self, run: Run) -> None:
        assert run.report_fd is not None
        data = os.read(run.report_fd, 1 << 16)
        if data:
            run.report.extend(data)
            return
        self.selector.unregister(run.report_fd)
        os.close(run.report_fd)
        run.report_fd = None
        try:
            report = json.loads(run.report or b"{}")
        except ValueError:
            return
        if isinstance(report.get("persist"), (int, float)) and report["persist"] > 0:
            self.persist = float(report["persist"])
        self._learn(report.get("modules") or ())

    def _learn(self, modules: Any) -> None:
        """Modules a run imported: imported here when no run goes on, and remembered for the next controller."""
        new = [name for name in modules if isinstance(name, str) and name not in self.known]
        if new:
            self.known.update(dict.fromkeys(new))
            self.to_import.extend(new)
            remember_modules(self.directory, list(self.known))

    def _ended(self, run: Run) -> None:
        _pid, status = os.waitpid(run.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if run.conn is not None:
            with contextlib.suppress(OSError):
                wire.send(run.conn, {"exit": code} if code >= 0 else {"killed": -code})
            self._drop_client(run)
        self.selector.unregister(run.pidfd)
        os.close(run.pidfd)
        del self.runs[run.pid]
        self.served += 1
        self.last_used = time.monotonic()


def _log(line: str) -> None:
    sys.stderr.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} warm[{os.getpid()}] {line}\n")
    sys.stderr.flush()


def _take_place(directory: Path) -> tuple[int, socket.socket] | None:
    """This install's lock and listening socket; None when another controller holds the lock (it serves, or is
    starting). The standard streams then go to the controller's log (stdin from /dev/null)."""
    checked_dir(directory, create=False)
    os.umask(0o077)
    lock = os.open(lock_path(directory), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(lock)
        return None
    path = socket_path(directory)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # left by a controller that was killed: the lock says it is gone
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    os.chmod(path, 0o600)
    listener.listen(64)  # from here a client waits for the imports instead of running cold
    log = os.open(log_path(directory), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    null = os.open(os.devnull, os.O_RDWR)
    for target, source in ((0, null), (1, log), (2, log)):
        os.dup2(source, target)
    os.close(null)
    os.close(log)
    return lock, listener


def serve_forked(directory: Path, origin: int) -> None:
    """The controller forked from a cold run's client (``fork.py``), which has imported what it remembered;
    ``origin``: the channel that run tells it on."""
    place = _take_place(directory)
    if place is None:
        return
    lock, listener = place
    controller = WarmController(directory, listener, lock, 0.0, socket.socket(fileno=origin))
    _log(f"serving {socket_path(directory)}, forked from a cold run")
    controller.serve([])


def main(argv: list[str]) -> int:
    directory, persist, script_dir = Path(argv[0]), float(argv[1]), argv[2]
    modules = json.loads(sys.stdin.buffer.read() or b"[]")
    place = _take_place(directory)
    if place is None:
        return 0
    lock, listener = place
    sys.path[0] = script_dir  # as the console script's interpreter has it: the runs see the same sys.path
    controller = WarmController(directory, listener, lock, persist)
    _log(f"serving {socket_path(directory)}, persist {persist:g} s")
    controller.serve([name for name in modules if isinstance(name, str)])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
