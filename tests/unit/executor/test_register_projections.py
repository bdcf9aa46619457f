"""ansible-core 2.21's register projections (``register:`` as a mapping of names to expressions) and the ``_task``
variable its conditions read, checked against ansible-core 2.21.5 on the same playbooks."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_projections_are_registered_after_the_task_in_any_order_and_unseen_before_it(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: projected
              debug:
                msg: "{{ rp_one | default('not yet') }}"
              register:
                rp_sum: rp_two + rp_three
                rp_two: rp_one * 2
                rp_three: rp_one * 3
                rp_one: 1
                rp_result: _task.result
            - name: shown
              debug:
                msg: "{{ [rp_sum, rp_result.msg] }}"
    """)
    assert run.exit_code == 0, run.output
    assert run.task("shown")["h1"]["msg"] == [5, "not yet"]


def test_a_loops_conditions_read_the_loop_so_far_and_its_projections(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: counted
              debug:
              loop: [1, 2, 3, 4]
              changed_when: seen in (1, 3)
              register:
                seen: _task.loop_result.results | length
                last_item: item
                outcome: _task.loop_result
            - name: alternate
              debug:
              loop: [1, 2, 3]
              when: _task.result | default({}) is skipped
              register: alternate
            - name: shown
              debug:
                msg: "{{ [seen, last_item, outcome.results | map(attribute='changed'),
                          alternate.results | map(attribute='skipped', default=false)] }}"
    """)
    assert run.exit_code == 0, run.output
    assert run.task("shown")["h1"]["msg"] == [4, 4, [True, False, True, False], [True, False, True]]


def test_a_projection_that_fails_fails_the_task_and_stays_undefined(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: broken
              debug:
              register:
                good: 1
                bad: 1 / 0
              ignore_errors: true
            - name: shown
              debug:
                msg: "{{ [good, bad is defined] }}"
    """)
    assert run.exit_code == 0, run.output
    broken = run.task("broken")["h1"]
    assert broken["failed"] is True and broken["msg"] == "Hello world!"
    assert broken["exception"].startswith("Task failed due to errors in 1 out of 2 register projections: bad: ")
    assert run.task("shown")["h1"]["msg"] == [1, False]
