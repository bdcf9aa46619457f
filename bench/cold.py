"""Where a cold first run's CPU goes: the controller's side by process, the hosts' side as a whole.

    python3 bench/cold.py [--hosts 20] [--runs 5] [--only ours,pyinfra] [--keep-env]
                          [--env-name bench] [--base-address N|ADDRESS]

Wall time on a shared machine moves with everyone else's load; CPU time moves far less. Each repetition runs the
workload's first (changing) run cold, every runner in turn, and counts its CPU with the kernel's cpuacct
accounting: the command and every process it starts, the daemons that leave its tree included (our connection
keeper and warm controller), in one control group; the test hosts' processes (their sshd and everything it
starts: logins, shells, agents, modules) in another. The controller's side is then split by process: the command
with the children it waited for (``wait4``: its workers), each of our daemons (read from /proc as the command
ends), and the rest (short-lived starters). Everything is counted up to the command's exit; what the daemons do
after it (the warm controller finishing its imports) is not part of the run. Needs root (control groups, test
hosts). See bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from hosts import HostSet, add_env_arguments
from runners import RUNNERS, Runner

from runner.testenv import TestEnv
from runner.warm.fork import PROCESS_NAME as WARM_PROCESS_NAME
from runner.warm.keeper_fork import PROCESS_NAME as KEEPER_PROCESS_NAME

GROUP_PREFIX = "bench-cold"


class CPUGroup:
    """A cpuacct control group (cgroup v1) or a cgroup v2 group: processes put in it, and their children after,
    are counted together, wherever they go in the process tree."""

    def __init__(self, name: str):
        root = _cpu_root()
        self.path = root / f"{GROUP_PREFIX}-{name}-{os.getpid()}"
        self.v2 = (root / "cgroup.controllers").exists()
        self.path.mkdir(exist_ok=True)

    def add(self, pid: int) -> None:
        try:
            (self.path / "cgroup.procs").write_text(str(pid))
        except (OSError, ProcessLookupError):
            pass  # ended meanwhile

    def seconds(self) -> float:
        if self.v2:
            for line in (self.path / "cpu.stat").read_text().splitlines():
                key, value = line.split()
                if key == "usage_usec":
                    return int(value) / 1e6
            return 0.0
        return int((self.path / "cpuacct.usage").read_text()) / 1e9

    def pids(self) -> list[int]:
        return [int(pid) for pid in (self.path / "cgroup.procs").read_text().split()]

    def remove(self) -> None:
        """Move what still runs here to the root group, then remove this group."""
        root = _cpu_root()
        for pid in self.pids():
            try:
                (root / "cgroup.procs").write_text(str(pid))
            except OSError:
                pass
        try:
            self.path.rmdir()
        except OSError:
            pass


def _cpu_root() -> Path:
    with open("/proc/mounts") as mounts:
        entries = [line.split() for line in mounts]
    for _device, mount, kind, options, *_ in entries:
        if kind == "cgroup" and "cpuacct" in options.split(","):
            return Path(mount)
    for _device, mount, kind, *_ in entries:
        if kind == "cgroup2":
            return Path(mount)
    raise SystemExit("no cpuacct (cgroup v1) or cgroup2 hierarchy mounted")


def _process_seconds(pid: int) -> float:
    """The CPU time of a live process, its ended threads included (/proc's stat, in clock ticks); 0 when gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _tree(root: int) -> list[int]:
    found, pending = [], [root]
    while pending:
        pid = pending.pop()
        found.append(pid)
        try:
            for thread in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{thread}/children") as handle:
                    pending += [int(child) for child in handle.read().split()]
        except OSError:
            pass
    return found


def _process_name(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip()
    except OSError:
        return ""


def _daemon_kind(command: str, name: str = "") -> str:
    """Which of our daemons a process is, by its command line, or its name (forked from the command, the warm
    controller and the keeper show their name and directory instead)."""
    if "runner.connection.keeper.daemon" in command or name == KEEPER_PROCESS_NAME:
        return "keeper"
    if "runner.warm.server" in command or name == WARM_PROCESS_NAME:
        return "warm"
    return "other live"


@dataclass
class Sample:
    wall: float
    controller: float
    hosts: float
    parts: dict[str, float] = field(default_factory=dict)


def cold_run(runner: Runner, hosts: HostSet, host_group: CPUGroup, log: Path) -> Sample:
    runner.forget_connections()
    hosts.remove_paths([runner.target_dir])
    invocation = runner.invocation(hosts)
    group = CPUGroup("controller")
    try:
        hosts_before = host_group.seconds()
        with open(log, "wb") as output:
            started = time.perf_counter()
            process = subprocess.Popen(
                invocation.argv,
                stdout=output,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=invocation.env,
                cwd=invocation.cwd,
                preexec_fn=lambda: group.add(os.getpid()),
            )
            _pid, status, usage = os.wait4(process.pid, 0)
            wall = time.perf_counter() - started
        total = group.seconds()
        hosts_used = host_group.seconds() - hosts_before
        parts = {"command+workers": usage.ru_utime + usage.ru_stime}
        for pid in group.pids():
            kind = _daemon_kind(_command_line(pid), _process_name(pid))
            parts[kind] = parts.get(kind, 0.0) + _process_seconds(pid)
        parts["starters"] = max(0.0, total - sum(parts.values()))
    finally:
        group.remove()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{runner.name} failed, see {log}")
    return Sample(wall, total, hosts_used, parts)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5, help="repetitions, each runner in turn (default 5)")
    parser.add_argument("--only", default="ours,pyinfra", help="runners (default ours,pyinfra)")
    parser.add_argument("--keep-env", action="store_true", help="leave the test hosts running afterwards")
    add_env_arguments(parser)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    workdir = Path(__file__).resolve().parent / "results" / f"cold-{time.strftime('%Y%m%d-%H%M%S')}"
    workdir.mkdir(parents=True)
    env, hosts = HostSet.start(args.hosts, args.env_name, args.base_address)
    host_group = CPUGroup("hosts")
    runners = [RUNNERS[name](workdir) for name in args.only.split(",")]
    try:
        for host in TestEnv(name=args.env_name).hosts():
            for pid in _tree(host.pid):
                host_group.add(pid)
        for runner in runners:
            runner.prepare()
        samples: dict[str, list[Sample]] = {runner.name: [] for runner in runners}
        for repetition in range(1, args.runs + 1):
            for runner in runners:
                sample = cold_run(runner, hosts, host_group, workdir / f"{runner.name}-{repetition}.log")
                samples[runner.name].append(sample)
                parts = ", ".join(f"{name} {seconds:.3f}" for name, seconds in sample.parts.items())
                print(
                    f"{runner.name} {repetition}: wall {sample.wall:.2f} s, controller CPU {sample.controller:.3f} s "
                    f"({parts}), hosts CPU {sample.hosts:.3f} s, load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
        print("\nmedians:")
        for name, runs in samples.items():
            parts = sorted({part for sample in runs for part in sample.parts})
            split = ", ".join(f"{part} {statistics.median(s.parts.get(part, 0.0) for s in runs):.3f}" for part in parts)
            print(
                f"{name}: wall {statistics.median(s.wall for s in runs):.2f} s, controller CPU "
                f"{statistics.median(s.controller for s in runs):.3f} s ({split}), hosts CPU "
                f"{statistics.median(s.hosts for s in runs):.3f} s, total CPU "
                f"{statistics.median(s.controller + s.hosts for s in runs):.3f} s"
            )
    finally:
        for runner in runners:
            runner.forget_connections()
        host_group.remove()
        if not args.keep_env:
            env.down()
    print(f"logs: {workdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
