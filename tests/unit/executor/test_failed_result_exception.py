"""What a registered failure holds (runner/executor/playbook_worker.py, result_conditions.py): ``exception`` on a
failed result, moved to ``<keyword>_suppressed_exception`` when ``failed_when`` or ``changed_when`` decides over
it, as in ansible-core 2.21."""

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


def test_a_true_failed_when_over_a_failure_keeps_the_failure_aside(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {shell: exit 1, register: r, failed_when: true, ignore_errors: true}
            - assert:
                that:
                  - r is failed and r.failed_when_result
                  - r.exception is defined and r.failed_when_suppressed_exception is defined
                  - r.msg == "The command exited with a non-zero return code."
        """)
    assert run.exit_code == 0, run.output
    # the [ERROR]: line says what decided the failure, of the module that had failed
    assert "[ERROR]: Task failed: Module failed: A 'failed_when' expression evaluated to 'True'." in run.output


def test_a_failed_when_failing_a_passing_task_says_so_in_msg(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {shell: "true", register: r, failed_when: true, ignore_errors: true}
            - assert:
                that:
                  - >-
                    r.msg == "Task failed: Action failed: A 'failed_when' expression evaluated to 'True'."
                  - r.failed_when_suppressed_exception is undefined
        """)
    assert run.exit_code == 0, run.output
    assert "[ERROR]: Task failed: Action failed: A 'failed_when' expression evaluated to 'True'." in run.output


def test_a_changed_when_that_errors_fails_the_task_keeping_the_failure_aside(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {ping: {data: crash}, register: crashed, changed_when: 1 / 0, ignore_errors: true}
            - {shell: "true", register: passed, changed_when: 1 / 0, ignore_errors: true}
            - {shell: "true", register: decided, changed_when: false}
            - assert:
                that:
                  - crashed is failed and crashed is not changed
                  - crashed.changed_when_result is contains "division by zero"
                  - crashed.changed_when_suppressed_exception is defined and crashed.exception is defined
                  - >-
                    crashed.msg is search "Task failed. Module failed. A 'changed_when' expression failed.
                    Error rendering expression. division by zero"
                  - passed is failed and passed.changed_when_suppressed_exception is undefined
                  - >-
                    passed.msg is search "^Task failed. Action failed. A 'changed_when' expression failed"
                  - decided is not changed and decided.changed_when_result == false
        """)
    assert run.exit_code == 0, run.output


def test_failed_when_never_judges_a_task_whose_arguments_could_not_be_rendered(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {name: broken, command: "echo {{ nope }}", failed_when: false}
        """)
    # as in ansible-core: the task fails before it has a result for failed_when to read
    assert run.exit_code == 2, run.output
    assert run.task("broken")["h1"]["failed"] and "failed_when_result" not in run.task("broken")["h1"]
