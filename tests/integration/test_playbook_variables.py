"""Variable precedence across every level, on a real host (precedence.yml): each pair of adjacent levels defines
one variable, and the higher level must win. The order is Ansible's documented one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.playbook_run import PLAYBOOKS, run_playbook

pytestmark = pytest.mark.hosts


def test_each_level_wins_over_the_one_below(inventory_path: Path, tmp_path: Path) -> None:
    inventory = tmp_path / "inventory"
    shutil.copytree(PLAYBOOKS / "precedence" / "inventory", inventory)
    shutil.copy(inventory_path, inventory / "hosts.yml")
    run = run_playbook(inventory, "precedence.yml", "-e", "include_vs_extra=extra_vars")
    assert run.exit_code == 0, run.output
    assert run.msg("prec : report")["host1"] == {
        "role defaults < group_vars": "group",
        "group_vars < host_vars": "host",
        "host_vars < facts": "Linux",
        "facts < play vars": "play_vars",
        "play vars < vars_files": "vars_files",
        "vars_files < role vars": "role_vars",
        "role vars < block vars": "block",
        "block vars < task vars": "task",
        "task vars < set_fact": "set_fact",
        "set_fact < role params": "role_params",
        "role params < include params": "include_params",
        "include params < extra vars": "extra_vars",
    }
