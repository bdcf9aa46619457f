"""wait_for on a real test host: ports served by the test process (the hosts share the machine's network), files
made or removed in the background on the host, and connections counted from the host's /proc/net/tcp."""

from __future__ import annotations

import socket
import threading
import uuid
from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost


class Listener:
    """A TCP server on the host's address that greets each client with ``banner``."""

    def __init__(self, address: str, banner: bytes = b""):
        self.socket = socket.create_server((address, 0))
        self.port = self.socket.getsockname()[1]
        self.banner = banner
        self.accepted: list[socket.socket] = []
        self.stopping = threading.Event()
        self.socket.settimeout(0.2)  # so the thread notices close() (a blocked accept() would not)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                connection, _ = self.socket.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted.append(connection)
            if self.banner:
                connection.sendall(self.banner)

    def close(self) -> None:
        self.stopping.set()
        self.thread.join()
        self.socket.close()
        for connection in self.accepted:
            connection.close()


@pytest.fixture
def listener(host: RemoteHost) -> Iterator[Listener]:
    server = Listener(host.address, b"SSH-2.0-testd v1.2\r\n")
    yield server
    server.close()


def _free_port(address: str) -> int:
    with socket.create_server((address, 0)) as probe:
        return probe.getsockname()[1]


@pytest.fixture
def workdir(host: RemoteHost) -> Iterator[str]:
    path = f"/tmp/wait-for-{uuid.uuid4().hex[:8]}"
    host.shell(f"mkdir -p {path}")
    yield path
    host.shell(f"rm -rf {path}")


def _later(host: RemoteHost, command: str) -> None:
    """Run ``command`` on the host a second from now, in the background."""
    host.shell(f"setsid sh -c 'sleep 1; {command}' </dev/null >/dev/null 2>&1 &")


def test_open_port(host: RemoteHost, listener: Listener) -> None:
    result = host.run("wait_for", {"host": host.address, "port": listener.port, "timeout": 10})
    assert not result.get("failed") and result["changed"] is False, result
    assert result["state"] == "started" and result["port"] == listener.port and result["elapsed"] >= 0


def test_banner_search_returns_match_groups(host: RemoteHost, listener: Listener) -> None:
    result = host.run("wait_for", {"host": host.address, "port": listener.port, "timeout": 10,
                                   "search_regex": r"v(\d+)\.(?P<minor>\d+)"})
    assert result["match_groups"] == ["1", "2"] and result["match_groupdict"] == {"minor": "2"}


def test_closed_port_times_out_with_the_message(host: RemoteHost) -> None:
    port = _free_port(host.address)
    result = host.run("wait_for", {"host": host.address, "port": port, "timeout": 1})
    assert result["failed"] is True and result["msg"] == f"Timeout when waiting for {host.address}:{port}"
    custom = host.run("wait_for", {"host": host.address, "port": port, "timeout": 1, "msg": "app is not up"})
    assert custom["msg"] == "app is not up" and "elapsed" in custom


def test_stopped(host: RemoteHost, listener: Listener) -> None:
    free = host.run("wait_for", {"host": host.address, "port": _free_port(host.address), "state": "stopped"})
    assert not free.get("failed"), free
    busy = host.run("wait_for", {"host": host.address, "port": listener.port, "state": "stopped", "timeout": 1})
    assert busy["failed"] is True and busy["msg"] == f"Timeout when waiting for {host.address}:{listener.port} to stop."


def test_file_appears_with_content(host: RemoteHost, workdir: str) -> None:
    log = f"{workdir}/server.log"
    _later(host, f"echo \"ready (version 2.5)\" > {log}")
    result = host.run("wait_for", {"path": log, "search_regex": r"ready \(version (?P<version>[0-9.]+)\)",
                                   "timeout": 30})
    assert not result.get("failed"), result
    assert result["match_groupdict"] == {"version": "2.5"} and result["path"] == log


def test_file_and_string_time_out(host: RemoteHost, workdir: str) -> None:
    missing = host.run("wait_for", {"path": f"{workdir}/never", "timeout": 1})
    assert missing["failed"] is True and missing["msg"] == f"Timeout when waiting for file {workdir}/never"
    host.shell(f"echo starting > {workdir}/log")
    no_match = host.run("wait_for", {"path": f"{workdir}/log", "search_regex": "ready", "timeout": 1})
    assert no_match["msg"] == f"Timeout when waiting for search string ready in {workdir}/log"


def test_absent_waits_for_removal_or_for_the_string_to_go(host: RemoteHost, workdir: str) -> None:
    lock = f"{workdir}/app.lock"
    host.shell(f"touch {lock}")
    _later(host, f"rm -f {lock}")
    assert not host.run("wait_for", {"path": lock, "state": "absent", "timeout": 30}).get("failed")
    host.shell(f"echo busy > {workdir}/status")
    _later(host, f"echo idle > {workdir}/status")
    result = host.run("wait_for", {"path": f"{workdir}/status", "search_regex": "busy", "state": "absent",
                                   "timeout": 30})
    assert not result.get("failed"), result
    kept = host.run("wait_for", {"path": f"{workdir}/status", "state": "absent", "timeout": 1})
    assert kept["failed"] is True and kept["msg"] == f"Timeout when waiting for {workdir}/status to be absent."


def test_drained_counts_active_connections(host: RemoteHost, listener: Listener) -> None:
    client = socket.socket()
    client.bind(("127.0.0.1", 0))
    client.connect((host.address, listener.port))
    args = {"host": host.address, "port": listener.port, "state": "drained", "timeout": 1,
            "active_connection_states": ["ESTABLISHED"]}
    try:
        busy = host.run("wait_for", args)
        assert busy["failed"] is True
        assert busy["msg"] == f"Timeout when waiting for {host.address}:{listener.port} to drain"
        excluded = host.run("wait_for", dict(args, exclude_hosts=["127.0.0.1"]))
        assert not excluded.get("failed"), excluded
    finally:
        client.close()
        for connection in listener.accepted:
            connection.close()
    assert not host.run("wait_for", dict(args, timeout=10)).get("failed")


def test_sleeps_without_a_condition_and_runs_in_check_mode(host: RemoteHost) -> None:
    result = host.run("wait_for", {"timeout": 1}, check=True)
    assert not result.get("failed") and result["changed"] is False and result["state"] == "started"


def test_wrong_combinations_fail_clearly(host: RemoteHost) -> None:
    both = host.run("wait_for", {"port": 1, "path": "/tmp"})
    assert both["failed"] is True and "mutually exclusive: port|path" in both["msg"]
    stopped_file = host.run("wait_for", {"path": "/tmp", "state": "stopped"})
    assert stopped_file["msg"] == "state=stopped should only be used for checking a port in the wait_for module"
    exclude = host.run("wait_for", {"port": 1, "exclude_hosts": ["a"]})
    assert exclude["msg"] == "exclude_hosts should only be with state=drained"
    bad_regex = host.run("wait_for", {"path": "/tmp", "search_regex": "("})
    assert bad_regex["failed"] is True and "search_regex" in bad_regex["msg"]
