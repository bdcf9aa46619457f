"""``attempts`` of a task retried by ``until`` (runner/executor/playbook_worker.py) is in the result that
``changed_when`` and ``failed_when`` read, at every attempt, as in Ansible."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_conditions_read_the_attempt_number(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: retried
              command: "true"
              register: retried
              until: false
              retries: 2
              delay: 0
              changed_when: retried.attempts > 1
              failed_when: retried.attempts > 5
        """)
    assert run.exit_code == 2, run.output
    result = run.task("retried")["h1"]
    assert result["attempts"] == 3 and result["changed"] is True and result["failed"] is True
