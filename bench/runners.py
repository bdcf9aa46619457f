"""The three runners the benchmark compares, each set up to apply the same workload to the same hosts.

A runner writes its own configuration and inventory into its work directory and says how to invoke it; the
benchmark (bench/run.py) times the invocations. Each runner works in its own target directory on the hosts.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

from hosts import HostSet
from venvs import tool_command, tool_version

BENCH = Path(__file__).resolve().parent
WORKLOAD = BENCH / "workload.yml"
WORKLOAD_PYINFRA = BENCH / "workload_pyinfra.py"

# The recap line of ansible-playbook and provisioning-playbook: "host1 : ok=9 changed=6 unreachable=0 ..."
_RECAP_CHANGED = re.compile(r"^\S+\s+:\s+ok=\d+\s+changed=(\d+)", re.MULTILINE)
# pyinfra's results table: "Grand total  27  24  -  3" (hosts, success = changed, error, no change)
_PYINFRA_TOTAL = re.compile(r"^\s*Grand total\s+\d+\s+(\d+|-)\s", re.MULTILINE)


@dataclass(frozen=True)
class Invocation:
    argv: list[str]
    env: dict[str, str]
    cwd: Path


class Runner(ABC):
    name: str

    def __init__(self, workdir: Path, forks: int | None = None):
        self.workdir = workdir / self.name
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.fixed_forks = forks

    def forks(self, hosts: HostSet) -> int:
        """Parallel workers (or connections): one per host unless fixed."""
        return self.fixed_forks or len(hosts)

    @property
    def target_dir(self) -> str:
        """Where on each host this runner's workload works; removed before each first run."""
        return f"/tmp/bench-{self.name}"

    # Whether the runner keeps connections between runs (a warm run differs from a cold one).
    keeps_connections = True

    def prepare(self) -> None:  # noqa: B027 - most runners need nothing
        """Bring the runner to the state a user's installation is in, before anything is timed."""

    def forget_connections(self) -> None:  # noqa: B027 - a runner that keeps nothing has nothing to forget
        """End what the runner keeps between runs (connections, agents), so the next run is a cold one."""

    @abstractmethod
    def invocation(self, hosts: HostSet) -> Invocation:
        """The command that applies the workload to ``hosts`` with one fork per host."""

    @abstractmethod
    def version(self) -> str: ...

    def changed_count(self, log: str) -> int | None:
        """Host-task changes the run reported (None when the output does not say)."""
        counts = [int(value) for value in _RECAP_CHANGED.findall(log)]
        return sum(counts) if counts else None

    def _environment(self, **extra: str) -> dict[str, str]:
        return {**os.environ, **extra}


class OursRunner(Runner):
    """provisioning-playbook on the playbook Ansible runs, with an otherwise empty configuration."""

    name = "ours"

    def prepare(self) -> None:
        # pip compiles a package's bytecode when it installs it; an editable checkout (and PYTHONDONTWRITEBYTECODE)
        # would have every timed run compile the sources instead. The other runners come from pip and have it.
        import compileall

        import filter_plugins
        import modules
        import runner

        for package in (runner, modules, filter_plugins):
            compileall.compile_dir(Path(package.__file__).parent, quiet=1)
        if self.record_runs:
            # The database made (and its schema migrated) before the timed runs, as a user's first run ever did.
            from runner.records.location import database_target
            from runner.records.writer import open_store

            self.workdir.mkdir(parents=True, exist_ok=True)
            open_store(database_target(str(self.workdir / "runs.db"), self.workdir)).close()

    record_runs = True  # every run is recorded by default: into a database in the work directory here

    def invocation(self, hosts: HostSet, playbook: Path = WORKLOAD) -> Invocation:
        inventory = hosts.write_yaml_inventory(self.workdir / f"inventory-{len(hosts)}.yml")
        return Invocation([_ours_command("provisioning-playbook"), str(playbook), "-i", str(inventory),
                           "-f", str(self.forks(hosts)), "-e", f"bench_dir={self.target_dir}"],
                          self._ours_environment(), self.workdir)

    def _ours_environment(self) -> dict[str, str]:
        """An otherwise empty configuration, connections kept 60 s (the default) by a keeper of the benchmark's
        own: its runtime directory is the runner's, not the user's."""
        config = self.workdir / f"{self.name}.cfg"
        records = f"runs_database = {self.workdir / 'runs.db'}\n" if self.record_runs else "record_runs = false\n"
        config.write_text(f"[defaults]\nstdout_callback = default\n{records}")
        runtime = self.workdir / "run"
        runtime.mkdir(mode=0o700, exist_ok=True)
        return self._environment(PROVISIONING_CONFIG=str(config), PROVISIONING_PERSIST="60",
                                 XDG_RUNTIME_DIR=str(runtime))

    def forget_connections(self) -> None:
        subprocess.run([_ours_command("provisioning-config"), "persist-stop"], env=self._ours_environment(),
                       capture_output=True, check=False, timeout=60)

    def version(self) -> str:
        from importlib.metadata import version

        return version("provisioning")


class OursUnrecordedRunner(OursRunner):
    """The same with the run records switched off (``record_runs = false``): what recording costs."""

    name = "ours-unrecorded"
    record_runs = False


class AnsibleRunner(Runner):
    """ansible-playbook, tuned: one fork per host, pipelining, SSH multiplexing, no fact gathering."""

    name = "ansible"

    def _config(self, forks: int, known_hosts: Path) -> Path:
        config = self.workdir / "ansible.cfg"
        config.write_text(
            "[defaults]\n"
            f"forks = {forks}\n"
            "gathering = explicit\n"
            "interpreter_python = /usr/bin/python3\n"
            "host_key_checking = True\n"
            "stdout_callback = default\n"
            "retry_files_enabled = False\n"
            f"local_tmp = {self.workdir}/tmp\n"
            "\n[ssh_connection]\n"
            "pipelining = True\n"
            # Ansible's default ssh_args (multiplexing on) plus the test env's known_hosts
            f"ssh_args = -C -o ControlMaster=auto -o ControlPersist=60s -o UserKnownHostsFile={known_hosts}\n"
            f"control_path_dir = {self.workdir}/cp\n"
        )
        return config

    def prepare(self) -> None:
        tool_command(self.name)  # installed before anything is timed (and before its version is asked)

    def invocation(self, hosts: HostSet, playbook: Path = WORKLOAD) -> Invocation:
        inventory = hosts.write_yaml_inventory(self.workdir / f"inventory-{len(hosts)}.yml")
        config = self._config(self.forks(hosts), hosts.known_hosts)
        return Invocation([str(tool_command("ansible")), str(playbook), "-i", str(inventory),
                           "-f", str(self.forks(hosts)), "-e", f"bench_dir={self.target_dir}"],
                          self._environment(ANSIBLE_CONFIG=str(config), ANSIBLE_NOCOLOR="1"), self.workdir)

    def version(self) -> str:
        return "ansible-core " + tool_version("ansible")

    def forget_connections(self) -> None:
        """End the SSH masters ControlPersist keeps (``ssh -O exit`` on each control socket)."""
        for control in (self.workdir / "cp").glob("*"):
            subprocess.run(["ssh", "-o", f"ControlPath={control}", "-O", "exit", "bench-host"],
                           capture_output=True, check=False, timeout=30)


class PyinfraRunner(Runner):
    """pyinfra with the same deploy as a Python file, one parallel connection per host."""

    name = "pyinfra"
    keeps_connections = False  # every run connects afresh: its second run is its warm one and its cold one

    def prepare(self) -> None:
        tool_command(self.name)  # installed before anything is timed (and before its version is asked)

    def invocation(self, hosts: HostSet) -> Invocation:
        inventory = hosts.write_pyinfra_inventory(self.workdir / f"inventory_{len(hosts)}.py")
        return Invocation([str(tool_command("pyinfra")), str(inventory), str(WORKLOAD_PYINFRA), "--yes",
                           "--parallel", str(self.forks(hosts)), "--data", f"bench_dir={self.target_dir}"],
                          self._environment(), self.workdir)

    def version(self) -> str:
        return "pyinfra " + tool_version("pyinfra")

    def changed_count(self, log: str) -> int | None:
        match = _PYINFRA_TOTAL.search(log)
        if match is None:
            return None
        return 0 if match.group(1) == "-" else int(match.group(1))


RUNNERS: dict[str, type[Runner]] = {runner.name: runner for runner in (OursRunner, OursUnrecordedRunner, AnsibleRunner,
                                                                     PyinfraRunner)}


def _ours_command(script: str) -> str:
    """Our console script, from the interpreter running the benchmark (the project is installed there)."""
    beside = Path(sys.executable).parent / script
    return str(beside) if beside.exists() else (shutil.which(script) or script)

