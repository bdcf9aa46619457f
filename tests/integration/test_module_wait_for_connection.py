"""wait_for_connection against a real test host: an answering host, an agent that died, a host that only comes
up after the task started (its SSH port forwarded late), and one that never answers."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest

from runner.connection import HostSession
from runner.executor.module_call import ModuleCall, execute
from tests.support.remote_harness import RemoteHost


def _wait(host: RemoteHost, session: HostSession, args: dict, check: bool = False) -> dict:
    call = ModuleCall("wait_for_connection", args, check=check)
    return host.loop.run_until_complete(execute(session, host.index, call))


class LateForwarder:
    """Starts listening on ``port`` only after ``delay`` seconds, then forwards each connection to ``target``."""

    def __init__(self, address: str, port: int, target: tuple[str, int], delay: float):
        self.address, self.port, self.target, self.delay = address, port, target, delay
        self.stopping = threading.Event()
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        if self.stopping.wait(self.delay):
            return
        with socket.create_server((self.address, self.port)) as server:
            server.settimeout(0.2)
            while not self.stopping.is_set():
                try:
                    client, _ = server.accept()
                except TimeoutError:
                    continue
                self.accepted += 1
                upstream = socket.create_connection(self.target)
                for source, sink in ((client, upstream), (upstream, client)):
                    threading.Thread(target=_pump, args=(source, sink), daemon=True).start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _free_port(address: str) -> int:
    with socket.create_server((address, 0)) as probe:
        return probe.getsockname()[1]


@pytest.fixture
def late_host(host: RemoteHost) -> Iterator[tuple[HostSession, LateForwarder]]:
    port = _free_port(host.address)
    forwarder = LateForwarder(host.address, port, (host.address, 22), delay=2)
    # The same host behind another port: its key is the one known for the host's own address.
    settings = replace(host.session.settings, port=port, host_key_checking=False)
    session = HostSession(settings, host.index)
    yield session, forwarder
    host.loop.run_until_complete(session.close())
    forwarder.stop()


def test_answering_host(host: RemoteHost) -> None:
    result = host.run("wait_for_connection", {"timeout": 30})
    assert result == {"changed": False, "elapsed": result["elapsed"]} and result["elapsed"] >= 0


def test_renews_a_connection_whose_agent_died(host: RemoteHost) -> None:
    assert host.run("ping")["ping"] == "pong"
    agent_pid = next(iter(host.session.agents.values())).info["pid"]
    host.shell(f"kill {agent_pid}")
    assert not host.run("wait_for_connection", {"timeout": 30}).get("failed")
    assert host.run("ping")["ping"] == "pong"


def test_retries_until_the_host_comes_up(host: RemoteHost, late_host: tuple[HostSession, LateForwarder]) -> None:
    session, forwarder = late_host
    result = _wait(host, session, {"timeout": 60, "sleep": 1, "connect_timeout": 5})
    assert not result.get("failed"), result
    assert forwarder.accepted >= 1  # it answered through the port that opened after the task began
    assert host.loop.run_until_complete(session.run_module("ping", {}))["ping"] == "pong"


def test_gives_up_after_timeout(host: RemoteHost) -> None:
    settings = replace(host.session.settings, port=_free_port(host.address))
    session = HostSession(settings, host.index)
    try:
        result = _wait(host, session, {"timeout": 2, "sleep": 1, "connect_timeout": 1})
    finally:
        host.loop.run_until_complete(session.close())
    assert result["failed"] is True and result["msg"].startswith("timed out waiting for ping module test: ")
    assert "elapsed" in result


def test_check_mode_skips(host: RemoteHost) -> None:
    result = host.run("wait_for_connection", {}, check=True)
    assert result["skipped"] is True and result["changed"] is False
    bad = host.run("wait_for_connection", {"timeout": "soon"})
    assert bad["failed"] is True and "timeout" in bad["msg"]
