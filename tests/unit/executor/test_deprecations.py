"""Deprecations a task meets (a condition in template delimiters) are in its result and printed, as ansible-core
2.19 gives them, unless the task's ansible_deprecation_warnings (or the run's setting) turns them off."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_a_conditions_deprecation_is_in_the_result_unless_turned_off(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: wrapped
              assert:
                that: "{{ 1 == 1 }}"
            - name: quiet
              assert:
                that: "{{ 1 == 1 }}"
              vars:
                ansible_deprecation_warnings: false
        """)
    assert run.exit_code == 0, run.output
    (entry,) = run.task("wrapped")["h1"]["deprecations"]
    assert entry["msg"] == "Conditionals should not be surrounded by templating delimiters such as {{ }} or {% %}."
    assert "deprecations" not in run.task("quiet")["h1"]
    assert "[DEPRECATION WARNING]: Conditionals should not be surrounded" in run.output
