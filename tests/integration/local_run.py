"""Running the commands on localhost through the local connection, in a project directory of the test's own
(its provisioning.cfg, a one-host inventory, its playbooks): for behaviour that needs no test host.

Not a conftest.py: the test files import what they need from it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.scripts import script

LOCALHOST = "localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n"


def local_project(directory: Path, config: str, **playbooks: str) -> Path:
    """``directory`` with ``config`` as its provisioning.cfg, the inventory ``hosts`` and ``NAME.yml`` files."""
    (directory / "provisioning.cfg").write_text(config)
    (directory / "hosts").write_text(LOCALHOST)
    for name, text in playbooks.items():
        (directory / f"{name}.yml").write_text(text)
    return directory


def run_command(project: Path, command: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``command ARGS`` run in ``project`` with its configuration alone (the caller's PROVISIONING_* and ANSIBLE_*
    variables left out, ``env`` added), colour forced on as on a terminal."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("PROVISIONING_", "ANSIBLE_")) and key != "NO_COLOR"}
    # The suite's choice stays: no connection keeper unless a test asks for one.
    environment.update({"PROVISIONING_FORCE_COLOR": "1",
                        "PROVISIONING_PERSIST": os.environ.get("PROVISIONING_PERSIST", "0"), **env})
    return subprocess.run([script(command), *args], cwd=project, capture_output=True, text=True,
                          env=environment, timeout=300)
