"""``provisioning-playbook`` with the plan cache: a second run of an unchanged playbook says at -vvv that its plan
came from the cache and runs the same; the inventory (group_vars) is read afresh by every run, cached plan or
not; ``--no-plan-cache`` and ``plan_cache = false`` leave the cache alone."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support.scripts import script

PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: say
      debug:
        msg: "{{ greeting }} {{ suffix }}"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "inventory" / "group_vars").mkdir(parents=True)
    (root / "inventory" / "hosts").write_text("localhost ansible_connection=local\n")
    (root / "inventory" / "group_vars" / "all.yml").write_text("greeting: hello\n")
    (root / "site.yml").write_text(PLAYBOOK)
    (root / "suffix.yml").write_text("suffix: world\n")
    return root


def run(root: Path, *options: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PROVISIONING_", "ANSIBLE_"))}
    # PROVISIONING_PERSIST=0: nothing kept, so no keeper or warm controller outlives the test
    env.update(XDG_CACHE_HOME=str(root.parent / "cache"), PROVISIONING_RECORD_RUNS="false", PROVISIONING_PERSIST="0",
               **environment)
    return subprocess.run([script("provisioning-playbook"), "-i", "inventory", "-e", "@suffix.yml", "site.yml",
                           "-vvv", *options], capture_output=True, text=True, cwd=root, env=env, timeout=300)


def cache_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line.split(":")[0] for line in result.stderr.splitlines() if line.startswith("PLAN CACHE")]


def test_a_second_run_uses_the_cached_plan_and_reads_the_inventory_afresh(project: Path) -> None:
    first = run(project)
    assert first.returncode == 0, first.stderr
    assert cache_lines(first) == ["PLAN CACHE miss", "PLAN CACHE stored"]
    assert '"msg": "hello world"' in first.stdout
    (project / "inventory" / "group_vars" / "all.yml").write_text("greeting: bonjour\n")
    second = run(project)
    assert second.returncode == 0, second.stderr
    assert cache_lines(second) == ["PLAN CACHE hit"]
    assert '"msg": "bonjour world"' in second.stdout
    (project / "suffix.yml").write_text("suffix: le monde\n")  # an extra-vars file is part of the key
    third = run(project)
    assert cache_lines(third) == ["PLAN CACHE miss", "PLAN CACHE stored"]
    assert '"msg": "bonjour le monde"' in third.stdout


def test_switched_off_by_option_or_setting_the_cache_is_left_alone(project: Path) -> None:
    for result in (run(project, "--no-plan-cache"), run(project, PROVISIONING_PLAN_CACHE="false")):
        assert result.returncode == 0, result.stderr
        assert cache_lines(result) == []
    assert not (project.parent / "cache" / "provisioning" / "plans").exists()
