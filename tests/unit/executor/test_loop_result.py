"""A loop's registered result (runner/executor/playbook_worker.py), as ansible-core 2.21 makes it: ``failed``
always there, its items' warnings gathered, no ``exception`` of its own, a loop over nothing skipped with
``skip_reason``, one whose items were all skipped saying so."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_a_loops_result_has_2_21s_keys(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {debug: {msg: x}, loop: [a], when: false, register: skipped}
            - {debug: {msg: x}, loop: [], register: empty}
            - {debug: {msg: x}, loop: [a], failed_when: true, ignore_errors: true, register: failing}
            - {debug: {var: missing_var}, loop: [a, b], register: warned}
            - name: check
              assert:
                that:
                  - skipped.keys() | sort == ["changed", "failed", "msg", "results", "skipped"]
                  - skipped.msg == "All items skipped"
                  - empty.keys() | sort == ["changed", "failed", "results", "skip_reason", "skipped", "skipped_reason"]
                  - empty.skip_reason == "No items in the list"
                  - failing.keys() | sort == ["changed", "failed", "msg", "results"]
                  - failing.results[0].exception is defined
                  - warned.warnings | length == 2
                  - warned.warnings[0] == warned.results[0].warnings[0]
                  - warned.failed is false
        """)
    assert run.exit_code == 0, run.output
    # the gathered warnings are the items' own: each distinct one is shown once
    assert run.output.count("'missing_var' is undefined\n") == 1
