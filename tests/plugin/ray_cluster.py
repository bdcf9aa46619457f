"""A real two-node Ray cluster on loopback (``ray_cluster``), for the Ray executor's tests.

Ray is installed into the running venv when missing (``ray_installed``), a skip saying why when the package index
cannot be reached. The cluster is a head and one worker node, each a ``ray start --block`` in a session of its
own, so it is stopped by its own process groups (never by ``ray stop``, which would end every Ray process of the
machine) and checked gone. The worker node offers the custom resource ``shard:dc-east`` and the head
``shard:bastion``, so hosts whose ``provisioning_shard`` names one of them are driven from that node. Health
checks are frequent, so a node that dies is noticed within seconds. The machine is small and shared: one CPU per
node, a small object store, no dashboard.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.processes import processes

HEAD_PORT = 6391
WORKER_SHARD = "dc-east"
HEAD_SHARD = "bastion"  # for a test that must know which hosts the head drives
_START_TIMEOUT = 180.0
_GONE_TIMEOUT = 15.0


def ray_importable() -> bool:
    return subprocess.run([sys.executable, "-c", "import ray"], capture_output=True, check=False).returncode == 0


@pytest.fixture(scope="session")
def ray_installed() -> None:
    """Ray importable in this interpreter (and its ``ray`` command beside it)."""
    if ray_importable():
        return
    install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "ray>=2.9"],
                             capture_output=True, text=True, timeout=900, check=False)
    if install.returncode != 0 or not ray_importable():
        pytest.skip(f"ray is not installed and could not be: {install.stderr.strip()[-300:]}")


@dataclass
class RayCluster:
    address: str  # the head's GCS address, as --executor ray://ADDRESS takes it
    temp_dir: Path
    nodes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)  # "head", "worker" -> ray start

    @property
    def executor(self) -> str:
        return f"ray://{self.address}"

    def node_pids(self, name: str) -> list[int]:
        """Every process of a node: its ``ray start`` and what it started (its process group)."""
        group = self.nodes[name].pid
        return [process.pid for process in processes() if process.pgid == group and process.running]

    def raylet_pid(self, name: str) -> int:
        group = self.nodes[name].pid
        found = [process.pid for process in processes()
                 if process.pgid == group and process.running and "/raylet" in process.command.split(" ")[0]]
        assert found, f"no raylet in node {name}'s processes"
        return found[0]

    def actor_pids(self) -> list[int]:
        """The worker processes running the run's actors (Ray names them ray::WorkerActor...)."""
        groups = {popen.pid for popen in self.nodes.values()}
        return [process.pid for process in processes()
                if process.running and "WorkerActor" in process.command and _in_groups(process.pid, groups)]

    def stop(self) -> None:
        for popen in reversed(list(self.nodes.values())):
            _end_group(popen)
        left = [pid for name in self.nodes for pid in self.node_pids(name)]
        for pid in left:  # a process that outlived its group's SIGTERM and SIGKILL deadline
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        # A killed process takes a moment to be gone on a loaded machine (its memory freed, its parent reaping it).
        deadline = time.monotonic() + _GONE_TIMEOUT
        while time.monotonic() < deadline and any(self.node_pids(name) for name in self.nodes):
            time.sleep(0.2)


def _in_groups(pid: int, groups: set[int]) -> bool:
    try:
        return os.getpgid(pid) in groups
    except ProcessLookupError:
        return False


def _end_group(popen: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(popen.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        popen.wait(30)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(popen.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    popen.wait(10)


def _ray_start(*args: str, log: Path) -> subprocess.Popen[bytes]:
    ray = Path(sys.executable).with_name("ray")
    environment = {**os.environ, "RAY_health_check_period_ms": "1000", "RAY_health_check_failure_threshold": "3",
                   "RAY_USAGE_STATS_ENABLED": "0"}
    with open(log, "wb") as out:
        return subprocess.Popen([str(ray), "start", "--block", "--node-ip-address", "127.0.0.1", "--num-cpus", "1",
                                 "--object-store-memory", "100000000", "--disable-usage-stats", *args],
                                stdout=out, stderr=subprocess.STDOUT, env=environment, start_new_session=True)


def _wait_for_nodes(address: str, count: int, log: Path) -> None:
    """Until the cluster lists ``count`` live nodes (asked through ``ray status``, not a driver of this process)."""
    ray = Path(sys.executable).with_name("ray")
    deadline = time.monotonic() + _START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            status = subprocess.run([str(ray), "status", "--address", address], capture_output=True, text=True,
                                    check=False, timeout=60)
        except subprocess.TimeoutExpired:  # a head still starting on a loaded machine: ask again
            continue
        if status.returncode == 0 and status.stdout.count(" node_") >= count:
            return
        time.sleep(2)
    raise AssertionError(f"the Ray cluster did not reach {count} nodes; see {log}")


def _port_free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


@pytest.fixture(scope="module")
def ray_cluster(ray_installed: None) -> Iterator[RayCluster]:
    """A head (offering ``shard:bastion``) and one worker node (``shard:dc-east``) on 127.0.0.1, stopped at the
    module's end."""
    if not _port_free(HEAD_PORT):
        pytest.skip(f"port {HEAD_PORT} is taken: another Ray cluster runs on this machine")
    temp_dir = Path(tempfile.mkdtemp(prefix="rayt-", dir="/tmp"))  # Ray's socket paths must stay short
    cluster = RayCluster(f"127.0.0.1:{HEAD_PORT}", temp_dir)
    try:
        cluster.nodes["head"] = _ray_start("--head", "--port", str(HEAD_PORT), "--include-dashboard", "false",
                                           "--temp-dir", str(temp_dir), "--resources",
                                           f'{{"shard:{HEAD_SHARD}": 1}}', log=temp_dir / "head.log")
        _wait_for_nodes(cluster.address, 1, temp_dir / "head.log")
        cluster.nodes["worker"] = _ray_start("--address", cluster.address,
                                             "--resources", f'{{"shard:{WORKER_SHARD}": 1}}',
                                             log=temp_dir / "worker.log")
        _wait_for_nodes(cluster.address, 2, temp_dir / "worker.log")
        yield cluster
    finally:
        cluster.stop()
        left = [pid for name in cluster.nodes for pid in cluster.node_pids(name)]
        shutil.rmtree(temp_dir, ignore_errors=True)  # the nodes' logs and sockets
        assert not left, f"Ray processes left after the cluster stopped: {left}"
