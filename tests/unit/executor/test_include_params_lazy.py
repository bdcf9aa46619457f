"""An include's vars (runner/executor/playbook_worker.py) stay templates read when a task uses them, as Ansible
reads them: one that cannot be rendered yet is no error unless used, and each use sees the values of that time."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_include_vars_are_read_when_used(local_hosts: LocalHosts) -> None:
    (local_hosts.base / "included.yml").write_text(
        "- {set_fact: {counter: 2}}\n"
        "- {name: show, debug: {msg: '{{ known }} {{ snapshot }} {{ looped }}'}}\n")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - set_fact: {counter: 1}
            - include_tasks: included.yml
              vars:
                not_known_yet: "{{ facts_not_gathered.os_family }}"
                known: "{{ facts_not_gathered | default('default') }}"
                snapshot: "{{ counter }}"
                looped: "{{ item }}"
              loop: [a]
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("show") == {"h1": "default 2 a"}
