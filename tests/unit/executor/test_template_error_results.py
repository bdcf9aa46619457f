"""A task whose arguments fail to template fails as Ansible's does: its result has ``exception`` (without a
traceback), and in a loop only the item fails while the next items still run."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_a_template_error_fails_the_task_or_the_item(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: whole
              ping:
                data: "{{ 5 / 0 }}"
              ignore_errors: true
            - name: items
              ping:
                data: "{{ 5 / item }}"
              loop: [0, 1]
              ignore_errors: true
    """)
    assert run.exit_code == 0, run.output
    whole = run.task("whole")["h1"]
    assert whole["failed"] is True
    assert "division by zero" in whole["msg"]
    assert whole["exception"] == "(traceback unavailable)"
    first, second = run.task("items")["h1"]["results"]
    assert first["failed"] is True and first["exception"] == "(traceback unavailable)" and first["item"] == 0
    assert second["ping"] == "5.0" and "exception" not in second
    assert "An exception occurred" not in run.output  # the message is shown once, as a failure
