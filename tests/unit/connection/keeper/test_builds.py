"""One keeper per installed build: starting this build's keeper leaves another build's running (a run of the other
version may be using it), and persist-stop ends them all. The keeper here is the real daemon; the other build's
is a socket that answers as a keeper would, since a second build cannot be installed in a unit test."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.connection.keeper import start
from runner.connection.keeper.place import socket_name
from runner.connection.keeper.start import ensure_keeper, keeper_status, stop_keeper
from runner.connection.keeper.wire import MESSAGE_HEADER, build_id, encode_message


class OtherBuildKeeper:
    """A keeper of another build at ``keeper-otherbuild.sock``: it records the requests it is sent."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / socket_name("otherbuild")
        self.requests: list[str] = []
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(self.path))
        self._listener.listen(8)
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return  # closed
            with connection:
                reader = connection.makefile("rb")
                head = reader.read(MESSAGE_HEADER.size)
                if len(head) < MESSAGE_HEADER.size:
                    continue
                request = json.loads(reader.read(MESSAGE_HEADER.unpack(head)[0]))
                self.requests.append(request["op"])
                connection.sendall(encode_message({"version": "otherbuild", "uid": os.getuid()}))

    def close(self) -> None:
        self._listener.close()
        self.path.unlink(missing_ok=True)


@pytest.fixture
def directory(tmp_path: Path) -> Iterator[Path]:
    private = tmp_path / "provisioning"
    private.mkdir(mode=0o700)
    yield private
    stop_keeper(private)  # never leave a keeper behind, whatever the test did


def test_this_builds_keeper_starts_beside_another_builds_and_leaves_it_running(directory: Path) -> None:
    other = OtherBuildKeeper(directory)
    try:
        address = ensure_keeper(30.0, directory)
        assert address.socket == directory / f"keeper-{build_id()}.sock"
        assert "stop" not in other.requests
        status = keeper_status(directory)
        assert status is not None and status["version"] == build_id()
        assert stop_keeper(directory)
        assert other.requests[-1] == "stop"  # persist-stop ends every build's keeper
        assert keeper_status(directory) is None
    finally:
        other.close()


def test_workers_looking_for_the_keeper_at_once_start_one(directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's workers each look for the keeper at their first connection, all at once: one of them starts it,
    the others wait for it and find it, rather than each starting a daemon that then finds the lock taken."""
    spawned: list[float] = []
    real_spawn = start._spawn

    def counted_spawn(place: Path, persist: float) -> None:
        spawned.append(persist)
        real_spawn(place, persist)

    monkeypatch.setattr(start, "_spawn", counted_spawn)
    addresses: list[object] = []
    workers = [threading.Thread(target=lambda: addresses.append(ensure_keeper(30.0, directory))) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert len(addresses) == 3 and len(set(addresses)) == 1
    assert spawned == [30.0]


def test_a_keeper_started_ahead_is_the_one_the_workers_find(directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run starts the keeper before it compiles, without waiting; the keeper holds the start lock until it
    listens, so workers that look for it at once wait for it and start none of their own."""
    spawned: list[float] = []
    monkeypatch.setattr(start, "_spawn", lambda place, persist: spawned.append(persist))
    start.start_ahead(30.0, directory)
    addresses: list[object] = []
    workers = [threading.Thread(target=lambda: addresses.append(ensure_keeper(30.0, directory))) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert len(addresses) == 3 and len(set(addresses)) == 1
    assert spawned == []
    status = keeper_status(directory)
    assert status is not None and status["version"] == build_id()


def test_a_keeper_started_ahead_another_way_is_not_started_anew(directory: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A warm controller forked from the cold run forks the keeper itself (runner.warm.fork.start_keeper): when it
    says it did, no interpreter is started beside it."""
    handed: list[tuple[Path, float]] = []

    def forked(place: Path, persist: float, _lock: int) -> bool:
        handed.append((place, persist))
        return True

    monkeypatch.setattr(start.subprocess, "Popen", lambda *args, **kwargs: pytest.fail("a keeper started anew"))
    start.start_ahead(30.0, directory, fork=forked)
    assert handed == [(directory, 30.0)]


def test_a_keeper_that_answers_is_not_started_ahead_again(directory: Path) -> None:
    first = ensure_keeper(30.0, directory)
    pid = keeper_status(directory)["pid"]  # type: ignore[index]
    start.start_ahead(30.0, directory)
    assert ensure_keeper(30.0, directory) == first
    assert keeper_status(directory)["pid"] == pid  # type: ignore[index]
