"""A task's header name templated with what the first host registered and set (runner/executor/playbook.py), as
ansible-core templates it with that host's variables; a name that needs more is left as written."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_a_header_shows_what_the_first_host_registered_and_set(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - command: echo first output
              register: out
            - name: "after {{ out.stdout }}"
              set_fact: {word: "{{ inventory_hostname }}-set"}
            - name: "then {{ word }}"
              debug: {msg: ok}
            - name: "unknown {{ nothing_here }}"
              debug: {msg: ok}
        """)
    assert run.exit_code == 0, run.output
    assert "TASK [after first output]" in run.output
    assert "TASK [then h1-set]" in run.output
    assert "TASK [unknown {{ nothing_here }}]" in run.output
