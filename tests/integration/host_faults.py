"""Faults injected into a test host from the machine: its processes found by PID namespace, its sshd sessions
killed, all its processes frozen (SIGSTOP) and thawed, the network to it turned into a black hole. Only for an
env a test module starts for itself."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from runner.testenv import TestEnv

AGENT_COMMAND = "/usr/bin/python3 -c import os;"  # the bootstrap's start, as the host's ps shows it


def _init_pid(env: TestEnv, name: str) -> int:
    for host in env.hosts():
        if host.name == name:
            return host.pid
    raise AssertionError(f"no running test host named {name}")


def host_processes(env: TestEnv, name: str) -> dict[int, str]:
    """Every process of the host (its init included), by the machine's pid: its command line."""
    namespace = os.readlink(f"/proc/{_init_pid(env, name)}/ns/pid")
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.readlink(entry / "ns" / "pid") != namespace:
                continue
            found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue  # ended meanwhile
    return found


def wait_for_process(env: TestEnv, name: str, command: str, timeout: float = 60) -> None:
    """Wait until a process running ``command`` exists on the host (a task has reached it)."""
    deadline = time.monotonic() + timeout
    while not any(line == command for line in host_processes(env, name).values()):
        assert time.monotonic() < deadline, f"{command!r} never started on {name}"
        time.sleep(0.05)


def _kill_matching(env: TestEnv, name: str, matches: Callable[[str], bool]) -> int:
    killed = 0
    for pid, command in host_processes(env, name).items():
        if matches(command):
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    return killed


def kill_ssh_sessions(env: TestEnv, name: str) -> int:
    """SIGKILL the host's sshd session processes (not its listener): every connection to it drops at once.
    Returns how many were killed."""
    return _kill_matching(env, name, lambda command: command.startswith(("sshd: ", "sshd-session: "))
                          and "/usr/sbin/sshd" not in command)


def kill_agents(env: TestEnv, name: str) -> int:
    """SIGKILL the host's provisioning agents (the Python started by the agent's bootstrap); sshd stays."""
    return _kill_matching(env, name, lambda command: command.startswith(AGENT_COMMAND))


@contextmanager
def frozen(env: TestEnv, name: str) -> Iterator[None]:
    """Every process of the host stopped (its kernel side still answers TCP), then continued on leaving."""
    pids = list(host_processes(env, name))
    try:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGSTOP)
            except ProcessLookupError:
                pass
        yield
    finally:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass


class BlackHoleRelay:
    """A TCP relay from ``listen`` to ``target`` that, once ``swallow()`` is called, passes nothing more either way
    while keeping every connection open: a network that silently drops packets (the peer's kernel, here the
    relay's, still acknowledges them)."""

    def __init__(self, listen: tuple[str, int], target: tuple[str, int]):
        self.target = target
        self.swallowing = threading.Event()
        self.stopping = threading.Event()
        self.sockets: list[socket.socket] = []
        self.server = socket.create_server(listen)
        self.server.settimeout(0.2)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                client, _ = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                if not self.swallowing.is_set():
                    sink.sendall(chunk)
        except OSError:
            pass

    def swallow(self) -> None:
        self.swallowing.set()

    def close(self) -> None:
        self.stopping.set()
        self.thread.join()
        self.server.close()
        for sock in self.sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
