"""ansible_python_module_rlimit_nofile: the soft limit of open files a module (and what it starts) runs with, for
that task only; omitted, it leaves the host's; undefined, the task fails saying so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import run_playbook_text

pytestmark = pytest.mark.hosts

PLAYBOOK = """
- hosts: host1
  gather_facts: false
  tasks:
    - name: limited
      shell: ulimit -n
      vars: {ansible_python_module_rlimit_nofile: "{{ 123 }}"}
    - name: as before
      shell: ulimit -n
    - name: omitted
      shell: ulimit -n
      vars: {ansible_python_module_rlimit_nofile: "{{ omit }}"}
    - name: undefined
      shell: ulimit -n
      vars: {ansible_python_module_rlimit_nofile: "{{ undefined_variable }}"}
      ignore_errors: true
"""


def test_a_module_runs_with_the_open_files_limit_its_task_sets(inventory_path: Path, tmp_path: Path) -> None:
    run = run_playbook_text(inventory_path, PLAYBOOK, tmp_path)
    assert run.task("limited")["host1"]["stdout"] == "123"
    host_limit = run.task("as before")["host1"]["stdout"]
    assert host_limit != "123" and run.task("omitted")["host1"]["stdout"] == host_limit
    undefined = run.task("undefined")["host1"]
    assert undefined["failed"] and "'undefined_variable' is undefined" in undefined["msg"]
