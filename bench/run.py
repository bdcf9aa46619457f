"""Benchmark: the same workload on the same local test hosts with this runner, ansible-core and pyinfra.

    python3 bench/run.py [--hosts 20] [--runs 3] [--only ours,ours-unrecorded,ansible,pyinfra] [--ours-forks F]
                         [--keep-env]

``ours`` records its runs (the default, into a database in the work directory); ``ours-unrecorded`` is the same
with recording off, so the two side by side give what recording costs. For each runner: the median wall time of
the first (changing, cold) run, and of the second (idempotent) run warm (right after the first, with what the
runner keeps between runs) and cold (after ending it), the controller's CPU time and peak memory, the marginal
cost of a host-task (the slope between N and N/2 hosts) and the ratios to this runner. Prints a table and
writes JSON and the runners' logs to bench/results/. Needs root
(the test hosts are namespaces). See bench/README.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hosts import HostSet, add_env_arguments
from measure import Measurement, measure
from report import RunnerResults, describe_machine, machine, table, write_json
from runners import RUNNERS, Runner

RESULTS = Path(__file__).resolve().parent / "results"
LOG_TAIL_LINES = 25


class RunFailed(Exception):
    def __init__(self, log: Path, exit_code: int):
        super().__init__(f"exit code {exit_code}, log {log}")
        self.log = log


def timed_run(runner: Runner, hosts: HostSet, logs: Path, label: str) -> tuple[Measurement, int | None]:
    """One invocation of the runner on ``hosts``; its measurement and the changes it reported."""
    invocation = runner.invocation(hosts)
    log = logs / f"{runner.name}-{len(hosts)}h-{label}.log"
    measurement = measure(invocation.argv, log, env=invocation.env, cwd=invocation.cwd)
    if measurement.exit_code != 0:
        raise RunFailed(log, measurement.exit_code)
    return measurement, runner.changed_count(log.read_text(errors="replace"))


def bench_runner(runner: Runner, hosts: HostSet, runs: int, logs: Path) -> RunnerResults:
    runner.prepare()
    results = RunnerResults(runner.name, runner.version(), len(hosts), smaller_hosts=len(hosts) // 2)
    try:
        for repetition in range(1, runs + 1):
            # cold: nothing kept from an earlier run; then warm: what the first run kept (ControlPersist masters,
            # our keeper's connections and agents); then the same idempotent run cold again
            runner.forget_connections()
            hosts.remove_paths([runner.target_dir])
            measurement, changes = timed_run(runner, hosts, logs, f"first-{repetition}")
            results.first.append(measurement)
            results.first_changes.append(changes)
            measurement, changes = timed_run(runner, hosts, logs, f"second-{repetition}")
            results.second.append(measurement)
            results.second_changes.append(changes)
            if runner.keeps_connections:
                runner.forget_connections()
                measurement = timed_run(runner, hosts, logs, f"second-cold-{repetition}")[0]
            results.second_cold.append(measurement)
            print(f"  {runner.name} run {repetition}/{runs}: first (cold) {results.first[-1].seconds:.2f} s, "
                  f"second warm {results.second[-1].seconds:.2f} s, second cold "
                  f"{results.second_cold[-1].seconds:.2f} s", flush=True)
        if results.smaller_hosts:
            fewer = hosts.first(results.smaller_hosts)
            for repetition in range(1, runs + 1):
                runner.forget_connections()
                hosts.remove_paths([runner.target_dir])
                results.smaller_first.append(timed_run(runner, fewer, logs, f"first-{repetition}")[0])
            print(f"  {runner.name} on {len(fewer)} hosts: first {results.smaller_first[-1].seconds:.2f} s",
                  flush=True)
    finally:
        runner.forget_connections()  # nothing of the benchmark's outlives it
    return results


def log_tail(log: Path) -> str:
    lines = log.read_text(errors="replace").splitlines()
    return "\n".join("    " + line for line in lines[-LOG_TAIL_LINES:])


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=20, help="number of local test hosts (default 20)")
    parser.add_argument("--runs", type=int, default=3, help="repetitions; medians are reported (default 3)")
    parser.add_argument("--only", default=",".join(RUNNERS),
                        help=f"comma-separated runners to compare (default {','.join(RUNNERS)})")
    parser.add_argument("--ours-forks", type=int, metavar="F",
                        help="worker processes for this runner (default: one per host, as the others get); each "
                             "worker serves its share of the hosts concurrently, so the CPU count suits it")
    parser.add_argument("--keep-env", action="store_true", help="leave the test hosts running afterwards")
    add_env_arguments(parser)
    arguments = parser.parse_args(argv)
    arguments.only = [name.strip() for name in arguments.only.split(",") if name.strip()]
    unknown = [name for name in arguments.only if name not in RUNNERS]
    if unknown:
        parser.error(f"unknown runner(s) {', '.join(unknown)}; choose from {', '.join(RUNNERS)}")
    if min(arguments.hosts, arguments.runs, arguments.ours_forks or 1) < 1:
        parser.error("--hosts, --runs and --ours-forks must be at least 1")
    return arguments


def main(argv: list[str]) -> int:
    arguments = parse_arguments(argv)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    logs = RESULTS / stamp
    logs.mkdir(parents=True)
    at_start = machine()
    print(describe_machine(at_start), flush=True)
    print(f"starting {arguments.hosts} local test hosts", flush=True)
    env, hosts = HostSet.start(arguments.hosts, arguments.env_name, arguments.base_address)
    results: list[RunnerResults] = []
    try:
        for name in arguments.only:
            print(f"{name}:", flush=True)
            runner = RUNNERS[name](logs / "work", arguments.ours_forks if name.startswith("ours") else None)
            try:
                results.append(bench_runner(runner, hosts, arguments.runs, logs))
            except RunFailed as failure:
                print(f"  {name} failed ({failure}); the end of its log:\n{log_tail(failure.log)}", flush=True)
                results.append(RunnerResults(name, "", len(hosts), error=str(failure)))
            except Exception as error:  # a runner that cannot even start must not stop the others
                print(f"  {name} failed: {error}", flush=True)
                results.append(RunnerResults(name, "", len(hosts), error=str(error)))
    finally:
        if not arguments.keep_env:
            env.down()
    print()
    print(table(results))
    output = RESULTS / f"{stamp}.json"
    parameters = {"hosts": arguments.hosts, "runs": arguments.runs, "runners": arguments.only,
                  "ours_forks": arguments.ours_forks or "one per host", "loadavg_at_start": at_start["loadavg"]}
    write_json(output, parameters, results)
    print(describe_machine(machine()))
    print(f"\nresults: {output}\nlogs: {logs}")
    return 1 if any(result.error for result in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
