"""One test host's life on the machine: its state directory, starting its init, knowing it runs, stopping it.

A host is ``unshare --mount --uts --pid --fork`` running ``init.py`` as PID 1 of the new namespaces; a host that
boots systemd has ``init.py`` replace itself with systemd once its root is built. The init's pid (as the machine
sees it) and its start time are recorded in ``host.json``: together they name that one process, so nothing else is
ever signalled, even after the pid is recycled.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from runner.testenv.cgroups import remove_cgroup
from runner.testenv.errors import TestEnvError
from runner.testenv.layer import HOST_KEY, SSHD_CONFIG
from runner.testenv.machine import accepts_tcp, start_time, unmount_all_under

INIT = Path(__file__).with_name("init.py")
MACHINE_PYTHON = Path("/usr/bin/python3")
STOP_TIMEOUT = 10.0
KILL_TIMEOUT = 5.0
LOG_TAIL_LINES = 8

# What a host runs as PID 1: init.py itself (it starts sshd), or systemd (init.py builds the root, then execs it).
PLAIN = "plain"
SYSTEMD = "systemd"
INITS = (PLAIN, SYSTEMD)
# How each ends its host. systemd takes SIGTERM as "re-execute yourself"; SIGRTMIN+4 is its poweroff, after
# which systemd in a container exits.
STOP_SIGNALS = {PLAIN: signal.SIGTERM, SYSTEMD: signal.SIGRTMIN + 4}


@dataclass(frozen=True)
class TestHost:
    """A running test host: ``pid`` is its init (PID 1 inside), as the machine numbers it."""

    __test__ = False  # not a pytest test class, despite its name

    name: str
    address: str
    pid: int
    state_dir: Path
    init: str = PLAIN


@dataclass(frozen=True)
class HostDir:
    """Where one host keeps its state: overlay upper and work dirs, the mount point of its root, its log."""

    path: Path

    @property
    def upper(self) -> Path:
        return self.path / "upper"

    @property
    def work(self) -> Path:
        return self.path / "work"

    @property
    def root(self) -> Path:
        return self.path / "root"

    @property
    def log(self) -> Path:
        return self.path / "init.log"

    @property
    def init_config(self) -> Path:
        return self.path / "init.json"

    @property
    def pid_file(self) -> Path:
        return self.path / "init.pid"

    @property
    def record(self) -> Path:
        return self.path / "host.json"

    @property
    def claim(self) -> Path:
        """The address of a host still starting (launched, its sshd not yet serving), so that another host
        started meanwhile does not take it."""
        return self.path / "starting"

    @property
    def stack(self) -> Path:
        """Mount points and work directories of the read-only overlays that stack extra lower layers."""
        return self.path / "stack"

    @property
    def lowers_record(self) -> Path:
        """The extra lower layers the host's root stacks over the machine's /, topmost first (a golden image's
        captured root), kept so a stopped host starts again on the same ones."""
        return self.path / "lowers.json"

    def lowers(self) -> list[Path]:
        try:
            return [Path(path) for path in json.loads(self.lowers_record.read_text())]
        except (OSError, ValueError):
            return []

    @property
    def host_key(self) -> Path:
        return self.upper / HOST_KEY.lstrip("/")

    def cgroup(self) -> Path | None:
        """The cgroup of a host that boots systemd, as its last start recorded it."""
        try:
            path = json.loads(self.init_config.read_text()).get("cgroup")
        except (OSError, ValueError):
            return None
        return Path(path) if path else None

    def reset(self, keep_disk: bool = False) -> None:
        """Empty layers for a fresh start; the old ones may hold a previous run's changes. ``keep_disk`` keeps
        the upper layer (the host's files and host key) for a host that boots again on the same disk."""
        unmount_all_under(self.path)
        self.remove_cgroup()
        for directory in (self.work, self.root, self.stack) if keep_disk else (self.upper, self.work, self.root,
                                                                               self.stack):
            shutil.rmtree(directory, ignore_errors=True)
            directory.mkdir(parents=True)
        for stale in (self.pid_file, self.record, self.log, self.claim):
            stale.unlink(missing_ok=True)

    def remove_cgroup(self) -> None:
        """Remove the cgroup of a host that has ended (none for a host that did not boot systemd)."""
        cgroup = self.cgroup()
        if cgroup is not None:
            remove_cgroup(cgroup)

    def log_tail(self) -> str:
        try:
            lines = self.log.read_text(errors="replace").strip().splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-LOG_TAIL_LINES:]) or "(empty log)"


def running_host(host_dir: HostDir) -> TestHost | None:
    """The host recorded in ``host_dir`` if its init still runs, else None."""
    try:
        record = json.loads(host_dir.record.read_text())
    except (OSError, ValueError):
        return None
    if start_time(record["pid"]) != record["start_time"]:
        return None
    return TestHost(record["name"], record["address"], record["pid"], host_dir.path, record.get("init", PLAIN))


def launch(host_dir: HostDir, name: str, address: str, hide: Path, cgroup: Path | None = None
           ) -> subprocess.Popen:
    """Start the host's init in new mount, UTS and PID namespaces; it runs on after this process exits. With a
    ``cgroup`` (runner.testenv.cgroups.host_cgroup), the host boots systemd in that cgroup."""
    config = {"hostname": name, "address": address, "root": str(host_dir.root), "upper": str(host_dir.upper),
              "work": str(host_dir.work), "pid_file": str(host_dir.pid_file), "hide": str(hide),
              "sshd_config": SSHD_CONFIG, "lowers": [str(path) for path in host_dir.lowers()],
              "stack": str(host_dir.stack), "init": SYSTEMD if cgroup is not None else PLAIN,
              "cgroup": str(cgroup) if cgroup is not None else None}
    host_dir.init_config.write_text(json.dumps(config))
    python = str(MACHINE_PYTHON) if MACHINE_PYTHON.exists() else sys.executable
    command = ["unshare", "--mount", "--uts", "--pid", "--fork", "--propagation", "private", "--kill-child",
               python, "-I", "-S", str(INIT), str(host_dir.init_config)]
    with open(host_dir.log, "ab") as log:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
                                close_fds=True)


def _record_started(host_dir: HostDir, name: str, address: str) -> TestHost | None:
    try:
        pid = int(host_dir.pid_file.read_text())
        init = json.loads(host_dir.init_config.read_text()).get("init", PLAIN)
    except (OSError, ValueError):
        return None
    started = start_time(pid)
    if started is None:
        return None
    host_dir.record.write_text(json.dumps({"name": name, "address": address, "pid": pid, "start_time": started,
                                           "init": init}))
    return TestHost(name, address, pid, host_dir.path, init)


def wait_until_serving(launched: list[tuple[HostDir, str, str, subprocess.Popen]], timeout: float
                       ) -> list[TestHost]:
    """Wait until every launched host's sshd accepts TCP connections; a host whose init ended is an error."""
    pending = list(launched)
    ready: list[TestHost] = []
    deadline = time.monotonic() + timeout
    while pending:
        for item in list(pending):
            host_dir, name, address, process = item
            if process.poll() is not None:
                raise TestEnvError(f"test host {name} ({address}) stopped while starting:\n{host_dir.log_tail()}")
            if accepts_tcp(address):
                host = _record_started(host_dir, name, address)
                if host is not None:
                    ready.append(host)
                    pending.remove(item)
        if pending and time.monotonic() > deadline:
            names = ", ".join(name for _, name, _, _ in pending)
            raise TestEnvError(f"test hosts {names} did not accept SSH within {timeout:.0f} s:\n"
                               f"{pending[0][0].log_tail()}")
        if pending:
            time.sleep(0.02)
    return ready


def abort(launched: list[tuple[HostDir, str, str, subprocess.Popen]]) -> None:
    """Stop hosts that did not finish starting (recorded or not): SIGKILL their launchers, whose
    ``--kill-child`` takes each init, and so its whole namespace, along; then wait until every init is gone."""
    for _, _, _, process in launched:
        if process.poll() is None:
            process.kill()
        process.wait()
    deadline = time.monotonic() + KILL_TIMEOUT
    for host_dir, _, _, _ in launched:
        try:
            pid = int(host_dir.pid_file.read_text())
        except (OSError, ValueError):
            continue
        while start_time(pid) is not None and time.monotonic() < deadline:
            time.sleep(0.02)
    stop([host_dir for host_dir, _, _, _ in launched])


def _signal_all(hosts: list[TestHost], signum: int | None = None) -> None:
    """Send ``signum`` to each host's init (None: the signal that ends that init gracefully)."""
    for host in hosts:
        if running_host(HostDir(host.state_dir)) is not None:  # still the very process we started
            try:
                os.kill(host.pid, signum if signum is not None else STOP_SIGNALS[host.init])
            except ProcessLookupError:
                pass


def _wait_gone(hosts: list[TestHost], timeout: float) -> list[TestHost]:
    deadline = time.monotonic() + timeout
    while True:
        alive = [host for host in hosts if running_host(HostDir(host.state_dir)) is not None]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.02)


def stop(host_dirs: list[HostDir]) -> None:
    """End the hosts recorded in ``host_dirs`` (all at once) and make sure none of their mounts remains.

    SIGTERM (systemd's poweroff signal for a host that boots it) lets each init end its processes; SIGKILL after
    a timeout ends the init, and with it, by the kernel's rule for a PID namespace, every process left inside.
    """
    hosts = [host for host in map(running_host, host_dirs) if host is not None]
    _signal_all(hosts)
    alive = _wait_gone(hosts, STOP_TIMEOUT)
    if alive:
        _signal_all(alive, signal.SIGKILL)
        alive = _wait_gone(alive, KILL_TIMEOUT)
    if alive:
        raise TestEnvError("test hosts did not stop: " + ", ".join(f"{host.name} (pid {host.pid})" for host in alive))
    for host_dir in host_dirs:
        # The mounts lived in the host's own namespace, gone with its last process; check that none leaked.
        unmount_all_under(host_dir.path)
        host_dir.remove_cgroup()
        for stale in (host_dir.record, host_dir.pid_file):
            stale.unlink(missing_ok=True)
