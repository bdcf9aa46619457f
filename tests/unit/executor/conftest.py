"""Playbooks run on "hosts" that are all this machine over the local connection: no root, no sshd, no test hosts.

Each host is an inventory name with ``ansible_connection: local`` and its own ``workdir`` under the test's tmp dir
(so hosts never write over each other); ``shared`` is a directory all of them see, for logs whose line order is
the order things ran in. A host can also be made unreachable: SSH to a loopback port that a socket holds bound
but never listens on, so the connection is refused at once and no other process can take the port meanwhile.
"""

from __future__ import annotations

import json
import socket
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.playbook_run import PlaybookRun, run_playbook

HOSTS = ("h1", "h2", "h3")


class LocalHosts:
    """An inventory of local hosts under ``base`` and a way to run playbooks on it."""

    def __init__(self, base: Path, names: tuple[str, ...] = HOSTS):
        self.base = base
        self.shared = base / "shared"
        self.shared.mkdir()
        self.hosts: dict[str, dict[str, Any]] = {}
        self._closed_ports: list[socket.socket] = []
        for name in names:
            self.add(name)

    def add(self, name: str, **host_vars: Any) -> None:
        """A local host with its own work dir (created empty) and ``host_vars``."""
        workdir = self.base / name
        workdir.mkdir()
        self.hosts[name] = {"ansible_connection": "local", "workdir": str(workdir), **host_vars}

    def add_unreachable(self, name: str) -> None:
        """A host whose SSH connection is refused: its address is a bound loopback port nobody listens on."""
        held = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        held.bind(("127.0.0.1", 0))
        self._closed_ports.append(held)
        self.hosts[name] = {"ansible_connection": "ssh", "ansible_host": "127.0.0.1",
                            "ansible_port": held.getsockname()[1], "ansible_ssh_timeout": 5}

    def workdir(self, name: str) -> Path:
        return Path(self.hosts[name]["workdir"])

    def log(self, name: str = "shared") -> list[str]:
        """The lines of ``log`` in a host's work dir (or in the shared dir): what ran there, in order."""
        path = (self.shared if name == "shared" else self.workdir(name)) / "log"
        return path.read_text().split() if path.exists() else []

    def play(self, playbook: str, *args: str, env: dict[str, str] | None = None) -> PlaybookRun:
        """Run ``playbook`` (YAML text, dedented) on these hosts with ``args`` (and settings in ``env``); never
        raises for a failed run."""
        inventory = self.base / "inventory.yml"
        # JSON is YAML: the inventory is written with the standard library.
        inventory.write_text(json.dumps({"all": {"hosts": self.hosts, "vars": {"shared": str(self.shared)}}}))
        path = self.base / "playbook.yml"
        path.write_text(textwrap.dedent(playbook))
        return run_playbook(inventory, path, *args, env=env)

    def close(self) -> None:
        for held in self._closed_ports:
            held.close()


@pytest.fixture
def local_hosts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalHosts]:
    """Three local hosts, h1 to h3, under the test's tmp dir, which is also the working directory of the run and
    of its agents: a relative path in a playbook writes there, never into the source tree."""
    monkeypatch.chdir(tmp_path)
    hosts = LocalHosts(tmp_path)
    try:
        yield hosts
    finally:
        hosts.close()
