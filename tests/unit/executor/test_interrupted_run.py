"""A real run stopped by a signal to its controller alone (not its group), as a CI job's timeout or ``kill`` does:
it exits with Ansible's code and message, and nothing it started on the controller is left, however deep (a
``pipe`` lookup's shell and that shell's child). Hosts are this machine over the local connection; the run is cold
(``persist`` 0), started in a session of its own; what is left is found by pid, from pids the commands wrote."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.processes import processes
from tests.support.scripts import script

HOSTS = 3


def _started(pids: Path) -> list[int]:
    deadline = time.monotonic() + 120  # a bound on a hang on a loaded machine, not a timing
    while time.monotonic() < deadline:
        lines = pids.read_text().splitlines() if pids.exists() else []
        if len(lines) >= 2:  # at least one command per worker (each runs its hosts' lookups one at a time)
            return [int(pid) for line in lines for pid in line.split()]
        time.sleep(0.05)
    raise AssertionError("the lookups' commands did not start")


@pytest.mark.parametrize(
    ("signum", "code", "message"),
    [
        (signal.SIGINT, 99, "[ERROR]: User interrupted execution"),
        (signal.SIGTERM, 143, "[ERROR]: Terminated by SIGTERM: stopped the run"),
        (signal.SIGHUP, 129, "[ERROR]: Terminated by SIGHUP: stopped the run"),
    ],
    ids=["SIGINT", "SIGTERM", "SIGHUP"],
)
def test_a_stopped_run_leaves_none_of_its_lookups_commands(
    tmp_path: Path, signum: int, code: int, message: str
) -> None:
    pids = tmp_path / "pids"
    inventory = tmp_path / "inventory"
    inventory.write_text("\n".join(f"h{number} ansible_connection=local" for number in range(HOSTS)) + "\n")
    # The shell writes its child's pid and its own, then waits: two levels below the worker.
    command = f"sleep 3600 & echo $! $$ >> {pids}; wait"
    run = subprocess.Popen(
        [
            script("provisioning"),
            "all",
            "-i",
            str(inventory),
            "-m",
            "debug",
            "-a",
            f"msg={{{{ lookup('pipe', {command!r}) }}}}",
            "-f",
            str(HOSTS),
        ],
        env={**os.environ, "PROVISIONING_PERSIST": "0"},
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    started = _started(pids)
    try:
        run.send_signal(signum)
        _, stderr = run.communicate(timeout=120)
        assert run.returncode == code, stderr
        assert message in stderr
        left = [process for process in processes() if process.pid in started and process.running]
        left += [process for process in processes() if process.pgid == run.pid and process.running]
        assert not left, "left running after the run ended:\n" + "\n".join(
            f"{process.pid} {process.command}" for process in left
        )
    finally:
        for pid in started:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if run.poll() is None:
            run.kill()
