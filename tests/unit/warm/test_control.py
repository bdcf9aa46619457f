"""A cold run that started a warm controller ends once that controller answers (it answers only when it has
imported what runs need), so a run started right after it is served at once; one that never answers is waited
for a bounded time only."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from runner.util.private_dir import checked_dir
from runner.warm import control, wire
from runner.warm.place import socket_path


@pytest.fixture
def directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    return checked_dir()


def listening(directory: Path) -> socket.socket:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(socket_path(directory)))
    listener.listen(1)
    return listener


def test_the_end_of_a_cold_run_waits_for_the_controllers_answer(directory: Path) -> None:
    heard: list[object] = []
    ready = threading.Event()

    def controller(listener: socket.socket) -> None:
        ready.wait(10)  # importing: the hello waits in the listen queue
        conn, _ = listener.accept()
        with conn:
            heard.append(wire.receive(conn))
            wire.send(conn, {"pid": 1})

    with listening(directory) as listener:
        thread = threading.Thread(target=controller, args=(listener,))
        thread.start()
        threading.Timer(0.2, ready.set).start()
        control.wait_warm_ready()
        thread.join(10)
    assert ready.is_set()
    assert heard == [{"op": "hello"}]


def test_a_controller_that_never_answers_is_waited_for_a_bounded_time(
    directory: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(control, "READY_WAIT", 0.2)
    with listening(directory):
        control.wait_warm_ready()  # returns: nothing accepts, and the wait has a bound
