"""A local host for the module tests: one agent per test module and interpreter, driven synchronously.

The fixture ``local_host`` (one per test module and interpreter) comes from the suite's plugin
(``tests/plugin/local_hosts.py``).
The modules run through the executor's own entry point, so controller actions (copy, raw) are exercised too.
Every test runs on the controller's python3 and, where the machine has one, on Python 3.8 (the oldest target).
"""

from __future__ import annotations

import asyncio
import glob
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from runner.connection import ConnectionSettings, HostSession
from runner.executor.module_call import ModuleCall, execute
from runner.module_index import ModuleIndex


def _python38() -> str | None:
    """A working Python 3.8 (a pyenv shim on PATH may name one that does not run)."""
    candidates = [*sorted(glob.glob("/root/.pyenv/versions/3.8*/bin/python3.8")), shutil.which("python3.8")]
    for candidate in filter(None, candidates):
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    return None


PYTHON38 = _python38()
INTERPRETERS = [pytest.param(None, id="python3"),
                pytest.param(PYTHON38, id="python3.8",
                             marks=pytest.mark.skipif(PYTHON38 is None, reason="no Python 3.8 on this machine"))]


class LocalHost:
    """localhost over the local connection, as the executor reaches it; ``run`` returns the module's result."""

    def __init__(self, interpreter: str | None):
        self.interpreter = interpreter
        # The controller's Python when none is given, as for the implicit localhost: an inventory's localhost is
        # discovered otherwise, with Ansible's warning in every result that reports it.
        host_vars = {"ansible_python_interpreter": interpreter or sys.executable}
        self.index = ModuleIndex()
        self.session = HostSession(ConnectionSettings.from_host_vars("localhost", host_vars), self.index)
        self.loop = asyncio.new_event_loop()

    def run(self, module: str, args: dict[str, Any] | None = None, *, check: bool = False, diff: bool = False,
            search_paths: list[Path] | None = None, environment: dict[str, Any] | None = None) -> dict[str, Any]:
        call = ModuleCall(module, dict(args or {}), check=check, diff=diff, environment=environment,
                          search_paths=list(search_paths or []))
        return self.loop.run_until_complete(execute(self.session, self.index, call))

    def close(self) -> None:
        self.loop.run_until_complete(self.session.close())
        self.loop.close()


def assert_ok(result: dict[str, Any], changed: bool) -> None:
    """Not failed, and changed exactly as expected (the message says what came back otherwise)."""
    assert not result.get("failed"), result
    assert result["changed"] is changed, result
