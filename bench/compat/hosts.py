"""The suite's test hosts: ``testhost`` and ``testhost2`` on loopback, and the inventory ansible-test would write.

ansible-test's POSIX inventory puts ``testhost`` in group ``testgroup``; ``localhost`` stays implicit (the
controller, as in Ansible). ``testhost2`` is there for the targets whose playbooks name it.
"""

from __future__ import annotations

from pathlib import Path

from bench.hosts import HostSet
from runner.testenv import TestEnv
from runner.testenv.inventory import access_vars

ENV_NAME = "compat"
BASE_ADDRESS = 70
HOST_NAMES = ("testhost", "testhost2")


def start_host_pairs(base_address: int, pairs: int) -> list[tuple[TestEnv, HostSet]]:
    """``pairs`` envs of two hosts from ``base_address`` up: targets run at the same time never share hosts."""
    step = len(HOST_NAMES)
    return [start_hosts(base_address + index * step) for index in range(pairs)]


def start_hosts(base_address: int = BASE_ADDRESS) -> tuple[TestEnv, HostSet]:
    """The env's two hosts, started if they are not running (an env left up by an earlier run is reused)."""
    name = ENV_NAME if base_address == BASE_ADDRESS else f"{ENV_NAME}{base_address}"
    env = TestEnv(name=name, count=len(HOST_NAMES), base_address=base_address, prefix="testhost", systemd=True)
    started = env.up()
    hosts = HostSet([(alias, host.address) for alias, host in zip(HOST_NAMES, started, strict=True)], env.private_key,
                    env.known_hosts)
    hosts.use_stock_shell_startup()
    return env, hosts


def write_inventory(path: Path, hosts: HostSet) -> Path:
    """An INI inventory as ansible-test writes it, with our access variables on each host."""
    # ansible-test's own variables for an SSH test host (inventory.create_posix_inventory), then ours
    access = {"ansible_connection": "ssh", "ansible_pipelining": "yes",
              **access_vars(hosts.private_key, hosts.known_hosts)}
    settings = " ".join(f"{key}={value}" for key, value in access.items())
    lines = {name: f"{name} ansible_host={address} {settings}" for name, address in hosts.hosts}
    text = (f"[testgroup]\n{lines['testhost']}\n\n"
            f"[testgroup2]\n{lines['testhost2']}\n")
    path.write_text(text)
    return path
