"""``throttle`` given as a template (runner/executor/playbook.py): rendered once for the task's hosts; one that
gives no whole number stops the run with Ansible's message and the task's place."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts


def test_a_templated_throttle_limits_the_task(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          vars: {one_at_a_time: 1}
          tasks:
            - name: throttled
              debug: {msg: ran}
              throttle: "{{ one_at_a_time }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("throttled") == ["h1", "h2", "h3"]


@pytest.mark.parametrize(("value", "reason"), [
    ("{{ 'nope' }}", "invalid literal for int() with base 10: 'nope'"),
    ("{{ nope }}", "'nope' is undefined"),
])
def test_a_throttle_that_is_no_number_stops_the_run(local_hosts: LocalHosts, value: str, reason: str) -> None:
    run = local_hosts.play(f"""
        - hosts: all
          gather_facts: false
          tasks:
            - name: throttled
              debug: {{msg: ran}}
              throttle: "{value}"
        """)
    assert run.exit_code == 1, run.output
    assert f"playbook.yml:5:7: Failed to convert the throttle value to an integer: {reason}" in run.output
