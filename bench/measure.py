"""Running one command and measuring it: wall time, the controller's CPU time and its memory.

CPU time is user + system time of the command and every descendant it waited for (``wait4``): the
controller's own work, apart from what the hosts spend (on this machine the hosts share the CPUs too).

Memory is measured the same way for every runner, two ways:
- ``peak_tree_mib``: the largest sum, over the command's whole process tree, of each process's proportional set
  size (PSS: shared pages split between the processes sharing them, so forked workers are not counted twice),
  sampled from /proc every 50 ms;
- ``max_rss_mib``: ``ru_maxrss`` from ``wait4`` on the command, the largest resident set of any single process
  in the tree that was waited for.
Processes that leave the tree (an ssh ControlPersist master daemonises) are counted by neither.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

SAMPLE_INTERVAL = 0.05


@dataclass(frozen=True)
class Measurement:
    seconds: float
    exit_code: int
    cpu_seconds: float
    peak_tree_mib: float
    max_rss_mib: float


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for thread in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{thread}/children") as handle:
                found += [int(child) for child in handle.read().split()]
    except OSError:
        pass  # the process ended while we looked
    return found


def _process_tree(root: int) -> list[int]:
    tree, pending = [], [root]
    while pending:
        pid = pending.pop()
        tree.append(pid)
        pending += _children(pid)
    return tree


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


class _TreeSampler(threading.Thread):
    """Samples the process tree's total PSS until stopped; keeps the peak."""

    def __init__(self, root: int):
        super().__init__(daemon=True)
        self.root = root
        self.peak_kib = 0
        self._stopped = threading.Event()

    def run(self) -> None:
        while not self._stopped.is_set():
            total = sum(_pss_kib(pid) for pid in _process_tree(self.root))
            self.peak_kib = max(self.peak_kib, total)
            self._stopped.wait(SAMPLE_INTERVAL)

    def stop(self) -> None:
        self._stopped.set()
        self.join()


def measure(argv: list[str], log: Path, env: dict[str, str] | None = None, cwd: Path | None = None) -> Measurement:
    """Run ``argv`` with stdout and stderr to ``log``; return its wall time, exit code and memory."""
    with open(log, "wb") as output:
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   env=env, cwd=cwd)
        sampler = _TreeSampler(process.pid)
        sampler.start()
        # wait4 rather than wait: it also returns the resource usage of the command and its waited-for children
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        sampler.stop()
    process.returncode = os.waitstatus_to_exitcode(status)
    return Measurement(seconds=seconds, exit_code=process.returncode, cpu_seconds=usage.ru_utime + usage.ru_stime,
                       peak_tree_mib=sampler.peak_kib / 1024, max_rss_mib=usage.ru_maxrss / 1024)
