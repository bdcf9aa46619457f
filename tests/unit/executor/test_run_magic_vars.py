"""The run-wide magic variables (ansible_playbook_python, ansible_forks, ansible_run_tags ...) as a playbook sees
them, with the values ansible-core 2.19 gives for the same command line."""

from __future__ import annotations

import os
import sys

from tests.unit.executor.conftest import LocalHosts

SHOW = """
- hosts: all
  gather_facts: false
  tasks:
    - name: show
      debug:
        msg: "{{ [ansible_playbook_python, ansible_config_file, ansible_forks, ansible_inventory_sources,
                  ansible_run_tags, ansible_skip_tags, ansible_limit | default('UNDEF')] }}"
      tags: [always]
"""


def test_defaults_without_tags_or_limit(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(SHOW, "-f", "3")
    assert run.exit_code == 0, run.output
    python, config_file, forks, sources, run_tags, skip_tags, limit = run.msg("show")["h1"]
    assert python == sys.executable
    assert config_file is not None and os.path.isabs(config_file)
    assert forks == 3
    assert sources == [str(local_hosts.base / "inventory.yml")]
    assert (run_tags, skip_tags, limit) == (["all"], [], "UNDEF")


def test_tags_and_limit_as_given(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(SHOW, "-t", "foo,bar", "--skip-tags", "baz", "-l", "h1")
    assert run.exit_code == 0, run.output
    *_, run_tags, skip_tags, limit = run.msg("show")["h1"]
    assert (run_tags, skip_tags, limit) == (["foo", "bar"], ["baz"], "h1")


def test_playbook_python_as_the_interpreter_of_a_local_host(local_hosts: LocalHosts) -> None:
    """Ansible's own test inventories point local hosts' interpreter at the controller's Python this way."""
    local_hosts.add("h4", ansible_python_interpreter="{{ ansible_playbook_python }}")
    run = local_hosts.play("""
        - hosts: h4
          gather_facts: false
          tasks:
            - name: ping
              ping:
    """)
    assert run.exit_code == 0, run.output
    assert run.task("ping")["h4"].get("ping") == "pong"
