"""What a registered failure holds (runner/executor/playbook_worker.py), as in Ansible 2.19: ``exception`` on a
failed result, moved to ``failed_when_suppressed_exception`` when ``failed_when`` lets the task pass."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_failed_results_have_an_exception_and_suppressed_ones_keep_it_aside(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {shell: exit 0, register: passed}
            - {shell: exit 1, register: failed, ignore_errors: true}
            - {shell: exit 1, register: suppressed, failed_when: false}
            - name: check
              assert:
                that:
                  - passed.exception is undefined and passed.failed_when_suppressed_exception is undefined
                  - failed.exception is defined and failed.failed_when_suppressed_exception is undefined
                  - suppressed.exception is undefined and suppressed.failed_when_suppressed_exception is defined
        """)
    assert run.exit_code == 0, run.output
