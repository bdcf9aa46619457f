"""What the keeper loads to start and to connect: its interpreter is started at a run's first SSH connection (or
ahead of it, while the run compiles), so it imports the transport and nothing of the configuration, the module
library or the playbook language."""

from __future__ import annotations

import subprocess
import sys

HEAVY = (
    "runner.config",
    "runner.models",
    "runner.compiler",
    "runner.module_index",
    "modules",
    "yaml",
    "jinja2",
    "pydantic",
    "click",
)


def test_the_keeper_and_its_transport_load_nothing_of_the_controller() -> None:
    code = (
        "import sys, runner.connection.keeper.daemon, runner.connection.settings, runner.connection.ssh, "
        "runner.connection.keeper.identity; print(*sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "asyncssh" in loaded
    assert [name for name in loaded if name.startswith(HEAVY)] == []
