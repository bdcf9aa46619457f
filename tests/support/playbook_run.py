"""Running ``provisioning-playbook`` and reading what it did, for unit tests (local connection) and integration
tests (test hosts) alike.

Not a conftest.py: test files and fixtures import what they need from it.
Runs go through the command itself — in-process with click's CliRunner (no interpreter start-up per run), or as a
real subprocess where the exit code and stderr of the installed command matter — always with the tests' own
configuration (tests/data/playbooks/provisioning.cfg) and a JSON report that the assertions read.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from runner.cli.playbook import main
from runner.secrets.keyring import current_keyring, install_keyring
from tests.support.scripts import script

PLAYBOOKS = Path(__file__).resolve().parents[1] / "data" / "playbooks"
# The configuration every playbook test runs with, so a developer's own provisioning.cfg never changes what tests see.
CONFIG = PLAYBOOKS / "provisioning.cfg"


@dataclass
class PlaybookRun:
    """One finished run: exit code, everything it printed, and its JSON report (None if it wrote none); a run in
    a subprocess also keeps its stdout and stderr apart."""

    exit_code: int
    output: str
    report: dict[str, Any] | None
    stdout: str = ""
    stderr: str = ""

    def tasks(self, name: str) -> list[dict[str, dict[str, Any]]]:
        """Per-host results of every task entry named ``name`` (``role : task`` for role tasks), in run order."""
        assert self.report is not None, self.output
        found = [task["hosts"] for play in self.report["plays"] for task in play["tasks"]
                 if task["task"]["name"] == name]
        assert found, f"no task named {name!r} in the report:\n{self.output}"
        return found

    def task(self, name: str) -> dict[str, dict[str, Any]]:
        """Per-host results of the task named ``name`` (its entries merged when it ran more than once)."""
        merged: dict[str, dict[str, Any]] = {}
        for hosts in self.tasks(name):
            merged.update(hosts)
        return merged

    def msg(self, name: str) -> dict[str, Any]:
        """What a debug task said, per host that ran it."""
        return {host: result.get("msg") for host, result in self.task(name).items() if not result.get("skipped")}

    def ran(self, name: str) -> list[str]:
        """Hosts that ran the task named ``name`` (not skipped)."""
        names = {t["task"]["name"] for play in (self.report or {}).get("plays", []) for t in play["tasks"]}
        if name not in names:
            return []
        return sorted(host for host, result in self.task(name).items() if not result.get("skipped"))

    def task_headers(self) -> list[str]:
        """The TASK headers the run printed, in order (a task that runs twice shows twice)."""
        return re.findall(r"^TASK \[(.*)\] \*", self.output, re.MULTILINE)

    @property
    def stats(self) -> dict[str, dict[str, int]]:
        assert self.report is not None, self.output
        return self.report["stats"]


def run_playbook(inventory: Path | str | None, playbook: str | Path, *args: str,
                 subprocess_run: bool = False, report: bool = True, env: dict[str, str] | None = None) -> PlaybookRun:
    """Run ``playbook`` (relative to tests/data/playbooks unless absolute) with ``args``; never raises for a
    failed run, so tests assert on the exit code and the output. ``env``: further environment variables (settings
    such as PROVISIONING_LOG_PATH)."""
    path = Path(playbook) if Path(playbook).is_absolute() else PLAYBOOKS / playbook
    with tempfile.TemporaryDirectory(prefix="playbook-run-") as scratch:
        report_file = Path(scratch) / "report.json"
        argv = [str(path), *args]
        if inventory is not None:
            argv += ["-i", str(inventory)]
        if report:
            argv += ["--report", f"json:{report_file}"]
        settings = {"PROVISIONING_CONFIG": str(CONFIG), **(env or {})}
        if subprocess_run:
            done = subprocess.run([script("provisioning-playbook"), *argv], capture_output=True, text=True,
                                  env={**os.environ, **settings}, timeout=300)
            code, output, streams = done.returncode, done.stdout + done.stderr, (done.stdout, done.stderr)
        else:
            keyring = current_keyring()  # the run installs its vault passwords for the process: not for later tests
            try:
                result = CliRunner().invoke(main, argv, env=settings)
            finally:
                install_keyring(keyring)
            code, output, streams = result.exit_code, result.output, ("", "")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
        data = json.loads(report_file.read_text()) if report_file.exists() else None
    return PlaybookRun(code, output, data, *streams)


def run_playbook_text(inventory: Path | str | None, text: str, directory: Path, *args: str) -> PlaybookRun:
    """Write ``text`` to ``directory``/site.yml and run it (see ``run_playbook``), asserting that it succeeded."""
    playbook = directory / "site.yml"
    playbook.write_text(text)
    run = run_playbook(inventory, str(playbook), *args)
    assert run.exit_code == 0, run.output
    return run
