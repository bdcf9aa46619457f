"""Exit codes of the installed provisioning-playbook command, as Ansible's: 0 ok, 2 a host failed, 4 a parse
error (an unreachable host too: see test_playbook_reports.py), 5 bad options."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import PLAYBOOKS, run_playbook

pytestmark = pytest.mark.hosts


@pytest.mark.parametrize(("playbook", "options", "code", "said"), [
    ("tags.yml", ("--tags", "a"), 0, "PLAY RECAP"),
    ("handlers_force.yml", ("-e", "base=/srv/playbook-tests/exit-code"), 2, "fatal: [host2]: FAILED!"),
    ("bad/malformed.yml", (), 4, "YAML parsing failed"),
    ("tags.yml", ("--report", "yaml:out.yml"), 5, "unknown report kind 'yaml'"),
    ("no-such-playbook.yml", (), 5, "could not be found"),
], ids=["ok", "host-failed", "parse-error", "bad-report-option", "missing-playbook"])
def test_exit_codes(inventory_path: Path, playbook: str, options: tuple[str, ...], code: int, said: str) -> None:
    run = run_playbook(inventory_path, PLAYBOOKS / playbook, *options, subprocess_run=True, report=False)
    assert run.exit_code == code, run.output
    assert said in run.output and "Traceback" not in run.output
