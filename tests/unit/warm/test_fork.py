"""The warm controller forked from a cold run's client: it holds none of the client's descriptors (whoever reads
the run's output sees its end when the run ends), it stays only when the run says it is wanted and then ends after
``persist`` idle seconds, and two cold runs at once leave one controller. The cold run here is a stand-in that
forks the controller as the client does and tells it what a run would."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from runner.connection.keeper.start import keeper_status, stop_keeper
from runner.util.private_dir import checked_dir
from runner.warm.control import stop_warm, warm_status
from runner.warm.fork import NOTHING_RUN, fork_warm
from runner.warm.keeper_fork import PROCESS_NAME as KEEPER_PROCESS_NAME
from runner.warm.place import lock_path, log_path, modules_path
from tests.plugin.keeper import KEEPER_MODULE, WARM_MODULE, keepers_under

RUN_TIMEOUT = 60  # far above what a stand-in run takes: reaching it means the run's output never ended
# A cold run that forks its controller, says what it wants of it (``TELL``: a persist in seconds, "stop", or
# nothing at all), and ends as the client does.
COLD_RUN = """
import os, sys
from runner.warm.fork import fork_warm, tell
from runner.warm import starting_cold
channel = fork_warm(sys.argv[1:])
starting_cold(channel)
print("forked" if channel is not None else "not forked", flush=True)
told = os.environ["TELL"]
if channel is not None and os.environ.get("KEEPER"):
    from runner.connection.keeper.start import start_ahead
    from runner.warm.fork import start_keeper

    start_ahead(float(told), fork=start_keeper)
if channel is not None and told != "nothing":
    tell(channel, {"stop": "a test"} if told == "stop" else {"persist": float(told)})
os._exit(0)
"""


def _cold_run(runtime: Path, tell: str, **environment: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", COLD_RUN, "site.yml"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_RUNTIME_DIR": str(runtime), "TELL": tell, **environment},
    )


def _ended(run: subprocess.Popen[str]) -> str:
    """The run's output, read to its end: this returns only once no process holds the run's stdout or stderr."""
    stdout, stderr = run.communicate(timeout=RUN_TIMEOUT)
    assert run.returncode == 0 and stderr == "", stderr
    return stdout


def _controllers(runtime: Path) -> list[int]:
    return list(keepers_under(str(runtime), (WARM_MODULE,)))


def _ended_because(runtime: Path, why: str) -> None:
    """Wait until the controller forked by the run has said it stops for ``why`` and has ended."""
    log = log_path(runtime / "provisioning")
    _wait_until(lambda: log.exists() and f"stopping: {why}" in log.read_text(), f"the controller stops: {why}")
    _wait_until(lambda: not _controllers(runtime), "the controller ended")
    assert warm_status(runtime / "provisioning") is None


def _wait_until(condition: Any, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.05)


def test_the_forked_controller_serves_and_holds_none_of_the_runs_descriptors(keeper_runtime: Path) -> None:
    run = _cold_run(keeper_runtime, "60")
    assert _ended(run) == "forked\n"  # its output ended while the controller lives on
    directory = keeper_runtime / "provisioning"
    _wait_until(lambda: warm_status(directory) is not None, "the controller answers")
    status = warm_status(directory)
    assert status is not None and status["persist"] == 60 and status["pid"] != run.pid
    assert _controllers(keeper_runtime) == [status["pid"]]
    held = [os.readlink(f"/proc/{status['pid']}/fd/{fd}") for fd in os.listdir(f"/proc/{status['pid']}/fd")]
    assert not [link for link in held if link.startswith("pipe:")]  # the run's stdout and stderr were pipes
    assert {link for link in held if link.startswith("/")} <= {"/dev/null", *map(str, directory.iterdir())}
    assert Path(f"/proc/{status['pid']}/cwd").resolve() == Path("/")
    assert stop_warm(directory)
    assert _controllers(keeper_runtime) == []


@pytest.mark.parametrize("tell", ["stop", "nothing"])
def test_a_run_that_keeps_nothing_leaves_no_controller(keeper_runtime: Path, tell: str) -> None:
    assert _ended(_cold_run(keeper_runtime, tell)) == "forked\n"
    _ended_because(keeper_runtime, "a test" if tell == "stop" else "the run that started it ended without")


def test_the_controller_ends_after_persist_idle_seconds(keeper_runtime: Path) -> None:
    assert _ended(_cold_run(keeper_runtime, "1")) == "forked\n"
    _ended_because(keeper_runtime, "idle for 1 s")


def test_two_cold_runs_at_once_leave_one_controller(keeper_runtime: Path) -> None:
    runs = [_cold_run(keeper_runtime, "60") for _ in range(2)]
    assert [_ended(run) for run in runs] == ["forked\n", "forked\n"]
    directory = keeper_runtime / "provisioning"
    _wait_until(lambda: warm_status(directory) is not None, "a controller answers")
    status = warm_status(directory)
    assert status is not None
    _wait_until(lambda: _controllers(keeper_runtime) == [status["pid"]], "the second controller gave way")
    assert stop_warm(directory)


def test_the_keeper_forked_from_the_controller_holds_none_of_its_descriptors(
    keeper_runtime: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above all not the controller's lock, which would keep the next controller from starting once this one has
    ended. (The controller forks the keeper when it was forked with modules remembered by an earlier one.)"""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(keeper_runtime))
    directory = checked_dir()
    modules_path(directory).write_text('["json"]')
    assert _ended(_cold_run(keeper_runtime, "60", KEEPER="1")) == "forked\n"
    _wait_until(lambda: keeper_status(directory) is not None, "the keeper answers")
    keepers = list(keepers_under(str(keeper_runtime)))
    assert len(keepers) == 1
    assert Path(f"/proc/{keepers[0]}/comm").read_text().strip() == KEEPER_PROCESS_NAME  # forked, not started anew
    held = [os.readlink(f"/proc/{keepers[0]}/fd/{fd}") for fd in os.listdir(f"/proc/{keepers[0]}/fd")]
    assert str(lock_path(directory)) not in held and not [link for link in held if link.startswith("pipe:")]
    assert stop_warm(directory) and stop_keeper(directory)
    _wait_until(lambda: not keepers_under(str(keeper_runtime), (KEEPER_MODULE, WARM_MODULE)), "both ended")


@pytest.mark.parametrize("option", sorted(NOTHING_RUN))
def test_a_command_that_runs_nothing_forks_no_controller(option: str) -> None:
    assert fork_warm(["site.yml", option]) is None  # returns before any fork: safe in the test's own process
