"""Every level of the variable precedence against all the levels below it, in one real run on a test host.

The project (tests/integration/variable_levels.py) defines ``at_<L>`` at level L and at every level below L;
the expectations are what ansible-core 2.19 prints for the same project (run with ``ansible-playbook -i
inventory site.yml -e @extra_vars.json``): Ansible's documented order, in which include_vars loses to set_fact
even when it runs after it.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from runner.testenv import TestEnv
from runner.vars import precedence_of
from tests.integration.variable_levels import LEVELS, expected, write_project
from tests.support.playbook_run import run_playbook


def _connection_of(env: TestEnv, name: str) -> dict[str, str]:
    """How the env's inventory reaches ``name``: its address and the group's key, user and interpreter."""
    group = yaml.safe_load(env.inventory_path.read_text())["all"]["children"]["testhosts"]
    return {**group["vars"], **group["hosts"][name]}


def test_each_level_wins_over_every_level_below(testenv: TestEnv, tmp_path: Path) -> None:
    playbook = write_project(tmp_path / "project", "host1", _connection_of(testenv, "host1"))
    run = run_playbook(tmp_path / "project" / "inventory", playbook,
                       "-e", f"@{tmp_path / 'project' / 'extra_vars.json'}")
    assert run.exit_code == 0, run.output
    assert run.msg("levels : report")["host1"] == expected()


def test_the_observed_order_is_the_one_the_runner_declares() -> None:
    # runner.vars.Precedence lists the levels in Ansible's documented order; ansible-core's behaviour agrees.
    assert sorted(LEVELS, key=lambda level: precedence_of(level)) == list(LEVELS)
