"""``attempts`` of a task retried by ``until`` or ``retries`` (runner/executor/playbook_worker.py) is in the result
that ``changed_when`` and ``failed_when`` read, at every attempt, and counts as ansible-core counts it."""

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
    assert run.exit_code == 0, run.output
    result = run.task("retried")["h1"]
    # three runs; once the retries run out ansible-core reports the retries asked for, and its failed_when
    # (false at every attempt) decides that the task did not fail (ansible-core 2.21)
    assert result["attempts"] == 2 and result["changed"] is True and result["failed"] is False


def test_retries_without_until_retry_until_the_task_succeeds(local_hosts: LocalHosts, tmp_path) -> None:
    marker = tmp_path / "ran"
    run = local_hosts.play(f"""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: always fails
              fail:
              retries: 3
              delay: 0
              register: failing
              ignore_errors: true
            - name: fails once
              shell: "[ -f {marker} ] || (touch {marker} && false)"
              retries: 5
              delay: 0
              register: second
        """)
    assert run.exit_code == 0, run.output
    assert run.task("always fails")["h1"]["attempts"] == 3
    assert run.task("fails once")["h1"]["attempts"] == 2


def test_zero_retries_run_once_without_checking_until(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: once
              command: "true"
              until: false
              retries: 0
        """)
    assert run.exit_code == 0, run.output
    assert "attempts" not in run.task("once")["h1"]
