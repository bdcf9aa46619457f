"""Benchmark: the workload on real local test hosts, local workers against the Ray executor, side by side.

    python3 bench/executors.py --ray ray://HOST:PORT [--hosts 200] [--runs 3] [--keep-env]
                               [--env-name bench-ray] [--base-address 127.0.1.1]

Starts the local test hosts (env ``bench-ray`` from 127.0.1.1 up, apart from every env on 127.0.0.x), then runs
bench/workload.yml on all of them with ``provisioning-playbook -f HOSTS``, alternately with local workers and with
the Ray cluster at ``--ray`` (a running one, e.g. two ``ray start`` nodes on this machine, see bench/README.md):
each repetition a first (changing) run and a second (idempotent) run per executor, cold (no kept connection).
Reports the median wall time of each, the ratio Ray / local, and what Ray adds per host-task; the controller's
CPU (the process tree waited for: with local workers the workers too, with Ray the driver alone, the actors
running in the cluster's processes). Needs root (the test hosts are namespaces). See bench/README.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from hosts import HostSet, add_env_arguments
from measure import Measurement
from report import describe_machine, machine
from run import RESULTS, RunFailed, log_tail, timed_run
from runners import OursRunner

ENV_NAME = "bench-ray"
BASE_ADDRESS = "127.0.1.1"  # 127.0.1.0/24 upward: no other env is there
TASKS_PER_HOST = 9  # bench/workload.yml: what each host runs


class OursOnExecutor(OursRunner):
    """provisioning-playbook with the executor given, connections not kept (Ray actors keep none: both cold)."""

    record_runs = False

    def __init__(self, workdir: Path, executor: str):
        self.name = "ours-local" if executor == "local" else "ours-ray"
        self.executor = executor
        super().__init__(workdir)

    @property
    def target_dir(self) -> str:
        return "/tmp/bench-executors"  # the same for both: each first run starts from nothing

    def _ours_environment(self) -> dict[str, str]:
        return {**super()._ours_environment(), "PROVISIONING_EXECUTOR": self.executor, "PROVISIONING_PERSIST": "0"}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ray", required=True, metavar="ray://HOST:PORT", help="the Ray cluster's head")
    parser.add_argument("--hosts", type=int, default=200, help="local test hosts (default 200)")
    parser.add_argument("--runs", type=int, default=3, help="repetitions; medians are reported (default 3)")
    parser.add_argument("--keep-env", action="store_true", help="leave the test hosts running afterwards")
    add_env_arguments(parser, name=ENV_NAME, base=BASE_ADDRESS)
    arguments = parser.parse_args(argv)
    if min(arguments.hosts, arguments.runs) < 1:
        parser.error("--hosts and --runs must be at least 1")
    logs = RESULTS / f"executors-{time.strftime('%Y%m%d-%H%M%S')}"
    logs.mkdir(parents=True)
    print(describe_machine(machine()), flush=True)
    print(f"starting {arguments.hosts} local test hosts (env {arguments.env_name}, from {arguments.base_address})",
          flush=True)
    env, hosts = HostSet.start(arguments.hosts, arguments.env_name, arguments.base_address)
    runners = [OursOnExecutor(logs / "work", "local"), OursOnExecutor(logs / "work", arguments.ray)]
    measured: dict[tuple[str, str], list[Measurement]] = {}
    try:
        runners[0].prepare()
        for repetition in range(1, arguments.runs + 1):
            for runner in runners:  # alternately, so both see the machine's load of the moment
                hosts.remove_paths([runner.target_dir])
                for kind in ("first", "second"):
                    measurement, _ = timed_run(runner, hosts, logs, f"{kind}-{repetition}")
                    measured.setdefault((runner.name, kind), []).append(measurement)
                print(f"  run {repetition}/{arguments.runs} {runner.name}: first "
                      f"{measured[(runner.name, 'first')][-1].seconds:.2f} s, second "
                      f"{measured[(runner.name, 'second')][-1].seconds:.2f} s, load {describe_load()}", flush=True)
    except RunFailed as failure:
        print(f"failed ({failure}); the end of its log:\n{log_tail(failure.log)}", flush=True)
        return 1
    finally:
        if not arguments.keep_env:
            env.down()
    print(report(measured, arguments.hosts))
    print(describe_machine(machine()))
    print(f"logs: {logs}")
    return 0


def describe_load() -> str:
    return "/".join(f"{value:.1f}" for value in machine()["loadavg"])


def report(measured: dict[tuple[str, str], list[Measurement]], hosts: int) -> str:
    host_tasks = hosts * TASKS_PER_HOST
    lines = [f"{hosts} hosts x {TASKS_PER_HOST} tasks = {host_tasks} host-tasks per run; medians",
             f"{'executor':<11} {'run':<7} {'wall (s)':>9} {'CPU (s)':>8} {'peak tree PSS (MiB)':>20}"]
    for (name, kind), runs in measured.items():
        lines.append(f"{name:<11} {kind:<7} {statistics.median(m.seconds for m in runs):>9.2f} "
                     f"{statistics.median(m.cpu_seconds for m in runs):>8.2f} "
                     f"{statistics.median(m.peak_tree_mib for m in runs):>20.0f}")
    for kind in ("first", "second"):
        local = statistics.median(m.seconds for m in measured[("ours-local", kind)])
        ray = statistics.median(m.seconds for m in measured[("ours-ray", kind)])
        lines.append(f"{kind} run: ray / local {ray / local:.2f}x, ray adds {(ray - local) * 1000 / host_tasks:.2f} "
                     f"ms of wall time per host-task ({ray - local:+.2f} s in all)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
