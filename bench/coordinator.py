"""The coordinator's own cost as the fleet grows, on SIMULATED HOSTS (bench/simulated_host.py: an in-process
stand-in for the agent that answers at once; no SSH, no agent, no host is involved).

    python3 bench/coordinator.py [--hosts 1000,5000,10000] [--tasks 5] [--executor local|ray://HOST:PORT]

For each fleet size, a fresh controller process runs a playbook of TASKS ``ping`` tasks on that many simulated
hosts (forks = hosts, so every host is in flight) with the default output sent to /dev/null, and reports the
controller process's own CPU time (user + system, its workers left out) and its peak RSS, per host-task. Flat
numbers per host-task as the fleet grows mean the controller's total grows linearly.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def one_run(hosts: int, tasks: int, executor: str) -> dict[str, float]:
    """In this process: the controller, with simulated hosts, measured."""
    sys.path.insert(0, str(HERE))
    import simulated_host

    simulated_host.install()  # before the workers fork (local) or start (Ray, through the setup hook)
    if executor != "local":
        import ray

        address = executor.removeprefix("ray://")
        ray.init(address=address, log_to_driver=False, configure_logging=False, runtime_env={
            "worker_process_setup_hook": "simulated_host.install",
            "env_vars": {"PYTHONPATH": str(HERE)}})
    from click.testing import CliRunner

    from runner.cli.playbook import main

    with tempfile.TemporaryDirectory(prefix="bench-coordinator-") as scratch:
        work = Path(scratch)
        inventory = work / "inventory.yml"
        inventory.write_text(json.dumps({"all": {"hosts": {f"sim{n}": None for n in range(hosts)},
                                                 # no such connection: a host not simulated fails the run
                                                 "vars": {"ansible_connection": "simulated"}}}))
        playbook = work / "playbook.yml"
        body = "".join(f"    - name: ping {n}\n      ping:\n" for n in range(tasks))
        playbook.write_text(f"- hosts: all\n  gather_facts: false\n  tasks:\n{body}")
        (work / "provisioning.cfg").write_text("[defaults]\n")
        before = resource.getrusage(resource.RUSAGE_SELF)
        started = time.perf_counter()
        result = CliRunner().invoke(main, [str(playbook), "-i", str(inventory), "-f", str(hosts),
                                           "--executor", executor],
                                    env={"PROVISIONING_CONFIG": str(work / "provisioning.cfg")})
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_SELF)
    if result.exit_code != 0:
        raise SystemExit(f"run failed ({result.exit_code}): {result.output[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    host_tasks = hosts * tasks
    return {"hosts": hosts, "tasks": tasks, "wall_s": round(wall, 2), "controller_cpu_s": round(cpu, 2),
            "cpu_ms_per_host_task": round(cpu * 1000 / host_tasks, 3),
            "peak_rss_mib": round(after.ru_maxrss / 1024, 1),
            "rss_kib_per_host": round(after.ru_maxrss / hosts, 1)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", default="1000,5000,10000", help="fleet sizes, comma-separated")
    parser.add_argument("--tasks", type=int, default=5, help="ping tasks per host (default 5)")
    parser.add_argument("--executor", default="local", help="local (default) or ray://HOST:PORT")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a child: one fleet size, JSON out
    arguments = parser.parse_args(argv)
    if arguments.one:
        print(json.dumps(one_run(arguments.one, arguments.tasks, arguments.executor)))
        return 0
    load = os.getloadavg()[0]
    print(f"SIMULATED HOSTS (an in-process stand-in for the agent), executor {arguments.executor}, "
          f"load average {load:.1f}")
    print(f"{'hosts':>7} {'host-tasks':>10} {'wall (s)':>9} {'ctl CPU (s)':>12} {'CPU ms/host-task':>17} "
          f"{'peak RSS (MiB)':>15} {'RSS KiB/host':>13}")
    for size in (int(text) for text in arguments.hosts.split(",")):
        child = subprocess.run([sys.executable, __file__, "--one", str(size), "--tasks", str(arguments.tasks),
                                "--executor", arguments.executor], capture_output=True, text=True, check=False)
        if child.returncode != 0:
            print(f"{size:>7} failed: {(child.stderr or child.stdout).strip()[-500:]}")
            continue
        row = json.loads(child.stdout.strip().splitlines()[-1])
        print(f"{row['hosts']:>7} {row['hosts'] * row['tasks']:>10} {row['wall_s']:>9} {row['controller_cpu_s']:>12} "
              f"{row['cpu_ms_per_host_task']:>17} {row['peak_rss_mib']:>15} {row['rss_kib_per_host']:>13}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
