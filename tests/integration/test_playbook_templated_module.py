"""A module named by a template of each host's variables (action: {module: "{{ m }}"} after set_fact): each host
runs the module its own variables name, with its arguments read for that module."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import run_playbook_text

pytestmark = pytest.mark.hosts

PLAYBOOK = """
- hosts: host1:host2
  gather_facts: false
  tasks:
    - set_fact: {module_to_run: debug}
      when: inventory_hostname == 'host1'
    - set_fact: {module_to_run: ping}
      when: inventory_hostname == 'host2'
    - name: per host
      action: "{{ module_to_run }} data=pong"
      register: out
      ignore_errors: true
    - name: a name that names nothing
      action: {module: "{{ 'no_such' ~ '_module' }}{{ inventory_hostname }}"}
      ignore_errors: true
"""


def test_each_host_runs_the_module_its_variables_name(inventory_path: Path, tmp_path: Path) -> None:
    run = run_playbook_text(inventory_path, PLAYBOOK, tmp_path)
    per_host = run.task("per host")
    assert per_host["host2"]["ping"] == "pong"
    # debug has no 'data' parameter: the arguments were checked for the module host1 named
    assert per_host["host1"]["failed"] and "data" in per_host["host1"]["msg"]
    unknown = run.task("a name that names nothing")
    assert "Cannot resolve 'no_such_modulehost1' to an action or module." in unknown["host1"]["msg"]
