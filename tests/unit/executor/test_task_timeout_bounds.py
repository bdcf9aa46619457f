"""A task's ``timeout`` outside Ansible's bounds (runner/executor/playbook_worker.py) fails its task without
running it, with Ansible's message; 0 is no limit."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts


@pytest.mark.parametrize("timeout", [-1, 100000001])
def test_a_timeout_out_of_bounds_fails_the_task(local_hosts: LocalHosts, timeout: int) -> None:
    run = local_hosts.play(f"""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: bounded
              command: "true"
              timeout: {timeout}
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    result = run.task("bounded")["h1"]
    assert result["failed"] and "timedout" not in result
    assert result["msg"].startswith(f"Timeout {timeout} is invalid, it must be between 0 and 100000000.")


def test_a_zero_timeout_is_no_limit(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: unbounded
              command: "true"
              timeout: 0
        """)
    assert run.exit_code == 0, run.output
