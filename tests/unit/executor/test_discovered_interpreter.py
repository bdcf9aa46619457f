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


def test_the_reporting_task_warns_as_its_discovery_mode_says(local_hosts: LocalHosts) -> None:
    """auto (the default) warns of the discovered interpreter in the task that reports it, and only there;
    auto_silent never warns; a fallback list that finds nothing warns of the names tried."""
    local_hosts.hosts = {"h1": local_hosts.hosts["h1"]}
    run = local_hosts.play("""
    - hosts: all
      gather_facts: false
      tasks:
        - name: first
          command: "true"
        - name: second
          command: "true"
        - meta: clear_facts
        - name: silent
          command: "true"
          vars:
            ansible_python_interpreter: auto_silent
        - meta: clear_facts
        - name: none found
          command: "true"
          vars:
            ansible_interpreter_python_fallback: [/nonexistent/python]
    """)
    assert run.exit_code == 0, run.output
    discovered = run.task("first")["h1"]["ansible_facts"]["discovered_interpreter_python"]
    assert run.task("first")["h1"]["warnings"] == [
        f"Host 'h1' is using the discovered Python interpreter at {discovered!r}, but future installation of "
        "another Python interpreter could cause a different interpreter to be discovered."]
    assert "warnings" not in run.task("second")["h1"]
    assert "warnings" not in run.task("silent")["h1"]
    assert run.task("none found")["h1"]["warnings"] == [
        "No python interpreters found for host 'h1' (tried ['/nonexistent/python'])."]
    assert run.task("none found")["h1"]["ansible_facts"] == {"discovered_interpreter_python": "/usr/bin/python3"}
