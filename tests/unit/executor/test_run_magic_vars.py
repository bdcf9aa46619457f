"""The run-wide magic variables (ansible_playbook_python, ansible_forks, ansible_run_tags ...) as a playbook sees
them, with the values ansible-core 2.19 gives for the same command line."""

from __future__ import annotations

import os
import sys

from click.testing import CliRunner

from runner.cli.adhoc import main as adhoc_main
from tests.support.playbook_run import CONFIG
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


def test_ad_hoc_runs_see_them_too(local_hosts: LocalHosts) -> None:
    """``provisioning h4 -m ping`` on an inventory that gives the local host the controller's Python."""
    local_hosts.add("h4", ansible_python_interpreter="{{ ansible_playbook_python }}")
    local_hosts.play("- hosts: h4\n  gather_facts: false\n  tasks: []\n")  # writes the inventory
    result = CliRunner().invoke(adhoc_main, ["h4", "-m", "ping", "-i", str(local_hosts.base / "inventory.yml")],
                                env={"PROVISIONING_CONFIG": str(CONFIG)})
    assert result.exit_code == 0, result.output
    assert '"ping": "pong"' in result.output


def test_play_hosts_leave_out_hosts_that_failed(local_hosts: LocalHosts) -> None:
    # as ansible-core: a host whose failure no rescue caught (here one failing again in its rescue) is no longer
    # in ansible_play_hosts or ansible_play_batch; ansible_play_hosts_all keeps it
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - block:
                - fail:
                  when: inventory_hostname == 'h1'
              rescue:
                - fail:
                  when: inventory_hostname == 'h1'
            - name: show
              debug:
                msg: "{{ ansible_play_hosts }} {{ ansible_play_batch }} {{ ansible_play_hosts_all }}"
        """)
    assert run.msg("show") == {host: "['h2', 'h3'] ['h2', 'h3'] ['h1', 'h2', 'h3']" for host in ("h2", "h3")}


def test_a_delegated_task_sees_the_delegated_hosts_vars(local_hosts: LocalHosts) -> None:
    # ansible_delegated_vars: the host delegated to -> its variables, inventory_hostname still the task's host
    local_hosts.add("h4", colour="blue")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: delegated
              debug:
                msg: "{{ ansible_delegated_vars['h4'].colour }} {{ ansible_delegated_vars['h4'].inventory_hostname }}"
              delegate_to: h4
            - name: not delegated
              debug:
                msg: "{{ ansible_delegated_vars is defined }}"
        """)
    assert run.msg("delegated") == {"h1": "blue h1"}
    assert run.msg("not delegated") == {"h1": False}
