"""The marginal cost of a host-task: what one more task on one more host costs this runner once its start-up,
connections and agents are paid.

    python3 bench/marginal.py [--hosts 20] [--tasks 10] [--runs 5] [--direct] [--keep-env] [--base-address 100]
                              [--module echo|ping|layer-ping] [--runner ours|ansible]

Runs a playbook of one task and one of 1 + TASKS tasks (each ``command: echo N``, the same on every host)
against the same hosts, alternately, RUNS times each; the slope between their median wall times, divided by
TASKS x HOSTS, is the marginal cost. It includes what the hosts spend on each task (their sshd and agent share
the machine's CPUs), and so does the controller-CPU slope printed beside it, which leaves the hosts out.

By default the runs keep their connections in the connection keeper, so each task's frames pass through its
relay (and the keeper's CPU is not the controller's); ``--direct`` measures the direct channel instead.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hosts import HostSet, add_env_arguments
from measure import Measurement, measure
from runners import AnsibleRunner, OursRunner

# What each task runs, by --module: the default echo; ansible-core's own ping module, as a native module of ours,
# through the compatibility layer (ansible-core's ping.py in the playbook's library/, by another name), and
# under ansible-playbook (--runner ansible).
TASKS = {
    "echo": "command: echo {number}",
    "ping": "ping: {{data: '{number}'}}",
    "layer-ping": "ansible_ping: {{data: '{number}'}}",
}


def task_playbook(directory: Path, tasks: int, module: str = "echo") -> Path:
    path = directory / f"{module}-{tasks}.yml"
    body = "".join(f"    - name: task {number}\n      {TASKS[module].format(number=number)}\n"
                   f"      changed_when: false\n" for number in range(tasks))
    path.write_text(f"- hosts: testhosts\n  gather_facts: false\n  tasks:\n{body}")
    return path


def add_layer_library(directory: Path) -> None:
    """ansible-core's ping.py as library/ansible_ping.py beside the playbooks: the same module code, run through
    the compatibility layer (ansible-core must be importable, as the layer needs it on the controller)."""
    from runner.ansible_api.core import ansible_core_dir

    (directory / "library").mkdir(exist_ok=True)
    source = ansible_core_dir("the layer-ping benchmark") / "modules" / "ping.py"
    (directory / "library" / "ansible_ping.py").write_bytes(source.read_bytes())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hosts", type=int, default=20, help="number of local test hosts (default 20)")
    parser.add_argument("--tasks", type=int, default=10, help="tasks the longer playbook adds (default 10)")
    parser.add_argument("--runs", type=int, default=5, help="repetitions of each playbook (default 5)")
    parser.add_argument("--keep-env", action="store_true", help="leave the test hosts running afterwards")
    add_env_arguments(parser)
    parser.add_argument("--direct", action="store_true",
                        help="connect directly (persist 0), not through the connection keeper: every run connects "
                             "and starts its agents, and tasks talk to them without the keeper's relay")
    parser.add_argument("--module", choices=sorted(TASKS), default="echo",
                        help="what each task runs: echo (command), ping (native), layer-ping (ansible-core's ping "
                             "through the compatibility layer)")
    parser.add_argument("--runner", choices=("ours", "ansible"), default="ours",
                        help="provisioning-playbook (default) or ansible-playbook (echo and ping only)")
    arguments = parser.parse_args(argv)
    if min(arguments.hosts, arguments.tasks, arguments.runs) < 1:
        parser.error("--hosts, --tasks and --runs must be at least 1")
    if arguments.runner == "ansible" and arguments.module == "layer-ping":
        parser.error("--module layer-ping is this runner's compatibility layer: use --module ping with ansible")

    env, hosts = HostSet.start(arguments.hosts, arguments.env_name, arguments.base_address)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-marginal-") as scratch:
            work = Path(scratch)
            runner = OursRunner(work) if arguments.runner == "ours" else AnsibleRunner(work)
            runner.prepare()
            if arguments.module == "layer-ping":
                add_layer_library(work)
            short = task_playbook(work, 1, arguments.module)
            long = task_playbook(work, 1 + arguments.tasks, arguments.module)
            times: dict[Path, list[Measurement]] = {short: [], long: []}
            try:
                for _ in range(arguments.runs):
                    for playbook in (short, long):
                        invocation = runner.invocation(hosts, playbook)
                        environment = {**invocation.env, **({"PROVISIONING_PERSIST": "0"} if arguments.direct else {})}
                        measurement = measure(invocation.argv, work / "run.log", env=environment, cwd=invocation.cwd)
                        if measurement.exit_code != 0:
                            print((work / "run.log").read_text(errors="replace")[-3000:])
                            return 1
                        times[playbook].append(measurement)
            finally:
                runner.forget_connections()  # the keeper that held the connections between the runs
    finally:
        if not arguments.keep_env:
            env.down()
    host_tasks = arguments.tasks * arguments.hosts
    wall = {playbook: statistics.median(m.seconds for m in runs) for playbook, runs in times.items()}
    cpu = {playbook: statistics.median(m.cpu_seconds for m in runs) for playbook, runs in times.items()}
    print(f"{time.strftime('%Y-%m-%d %H:%M')}: {arguments.runner}, {arguments.module}, {arguments.hosts} hosts, "
          f"1 task vs {1 + arguments.tasks} tasks, medians of {arguments.runs}, load {os.getloadavg()[0]:.1f}")
    print(f"  wall: {wall[short]:.2f} s vs {wall[long]:.2f} s -> "
          f"{(wall[long] - wall[short]) / host_tasks * 1000:.2f} ms per host-task")
    print(f"  controller CPU: {cpu[short]:.2f} s vs {cpu[long]:.2f} s -> "
          f"{(cpu[long] - cpu[short]) / host_tasks * 1000:.2f} ms per host-task")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
