"""Running ``provisioning-playbook`` on the session's test hosts and reading what it did.

Running a playbook and reading its report is tests.support.playbook_run (the unit tests use it too); what is
here knows about the test hosts.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

from ruamel.yaml import YAML

from runner.testenv import TestEnv

HOSTS = ("host1", "host2", "host3")


def inventory_with_unreachable_host(inventory_path: Path, directory: Path) -> Path:
    """A copy of the test inventory with 'ghost' on 127.0.0.99, where no sshd listens."""
    yaml = YAML()
    data = yaml.load(inventory_path.read_text())
    data["all"]["children"]["testhosts"]["hosts"]["ghost"] = {"ansible_host": "127.0.0.99"}
    path = directory / "inventory.yml"
    with path.open("w") as stream:
        yaml.dump(data, stream)
    return path


def host_root(env: TestEnv, name: str) -> Path:
    """The test host's filesystem as its own processes see it (the root of its init's mount namespace)."""
    for host in env.hosts():
        if host.name == name:
            return Path(f"/proc/{host.pid}/root")
    raise AssertionError(f"no running test host named {name}")


def host_file(env: TestEnv, name: str, path: str) -> Path:
    return host_root(env, name) / path.lstrip("/")


def fresh_dir(tag: str) -> str:
    """A directory path on the hosts that belongs to one test alone (nothing exists there beforehand)."""
    return f"/srv/playbook-tests/{re.sub(r'[^A-Za-z0-9_.-]+', '_', tag)}-{uuid.uuid4().hex[:8]}"
