"""Ansible's ``discovered_interpreter_python`` fact (runner/executor/module_call.py): the first module run on a host
whose Python was discovered reports it under ``ansible_facts``, once; ``meta: clear_facts`` makes the next one
report it again; a configured ansible_python_interpreter reports none."""

from __future__ import annotations

import sys

from tests.unit.executor.conftest import LocalHosts

PLAYBOOK = """
    - hosts: all
      gather_facts: false
      tasks:
        - name: first
          command: "true"
        - name: second
          command: "true"
        - meta: clear_facts
        - name: after clearing
          command: "true"
        - name: the fact
          debug:
            msg: "{{ ansible_facts.discovered_interpreter_python | default('none') }}"
    """


def test_the_first_module_reports_the_discovered_python(local_hosts: LocalHosts) -> None:
    local_hosts.hosts = {"h1": local_hosts.hosts["h1"]}
    run = local_hosts.play(PLAYBOOK)
    assert run.exit_code == 0, run.output
    discovered = run.task("first")["h1"]["ansible_facts"]["discovered_interpreter_python"]
    assert "python3" in discovered and discovered.startswith("/")
    assert "ansible_facts" not in run.task("second")["h1"]
    assert run.task("after clearing")["h1"]["ansible_facts"] == {"discovered_interpreter_python": discovered}
    assert run.msg("the fact") == {"h1": discovered}


def test_a_configured_interpreter_is_not_discovered(local_hosts: LocalHosts) -> None:
    local_hosts.hosts = {"h1": {**local_hosts.hosts["h1"], "ansible_python_interpreter": sys.executable}}
    run = local_hosts.play(PLAYBOOK)
    assert run.exit_code == 0, run.output
    assert "ansible_facts" not in run.task("first")["h1"]
    assert run.msg("the fact") == {"h1": "none"}
