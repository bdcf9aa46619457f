"""An interrupted run ends what its workers started on the controller, and nothing else: a worker held up waiting
for a command (a ``pipe`` lookup's, run synchronously) still gets the controller's stop, and the command and its
children go with the worker's process group. Checked by pid and process group in /proc, not by name."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from runner.executor.outcome import run_with_workers
from runner.executor.pool import WorkerPool
from tests.support.processes import Process, processes


class WaitsOnACommand:
    """Each host's job runs a shell whose child never ends by itself, blocking the worker's loop as a lookup does;
    the shell writes its child's pid and its own to ``pids`` first."""

    def __init__(self, pids: Path):
        self.pids = pids

    async def handle(self, host: str, payload: Any) -> Any:
        subprocess.run(f"sleep 3600 & echo $! $$ >> {self.pids}; wait", shell=True, check=False)
        return {"changed": False}

    def update(self, message: Any) -> None:
        return None

    async def close(self) -> None:
        return None

    def abort(self) -> None:
        return None


def _alive(pid: int) -> Process | None:
    return next((p for p in processes() if p.pid == pid and p.running), None)


def _wait_for_lines(path: Path, count: int) -> list[int]:
    deadline = time.monotonic() + 60  # a bound on a hang, not a timing
    while time.monotonic() < deadline:
        if path.exists() and len(lines := path.read_text().split("\n")[:-1]) >= count:
            return [int(pid) for line in lines for pid in line.split()]
        time.sleep(0.05)
    raise AssertionError(f"the commands did not start: {path.read_text() if path.exists() else ''}")


def test_an_interrupted_run_ends_the_commands_its_blocked_workers_wait_for(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    hosts = ["h1", "h2"]
    pool = WorkerPool(hosts, 2, WaitsOnACommand(pids))
    workers = [process.pid for process in pool.processes]
    # Beside the run, in the test's own process group: a process the run did not start must stay.
    bystander = subprocess.Popen(["sleep", "3600"])
    started: list[int] = []

    async def work() -> None:
        jobs = [asyncio.ensure_future(pool.run(host, None)) for host in hosts]
        started.extend(await asyncio.get_running_loop().run_in_executor(None, _wait_for_lines, pids, len(hosts)))
        os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C to the controller alone, not to its group
        await asyncio.gather(*jobs)

    try:
        assert run_with_workers(pool, work) == signal.SIGINT
        groups = {process.pgid for pid in started if (process := _alive(pid)) is not None}
        assert not groups, "the commands the workers waited for outlived the run"
        assert all(_alive(pid) is None for pid in workers)
        assert _alive(bystander.pid) is not None
    finally:
        bystander.kill()
        bystander.wait()
        for pid in started:
            if _alive(pid) is not None:
                os.kill(pid, signal.SIGKILL)
