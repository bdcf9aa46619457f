"""Blocks (runner/executor/host_walk.py): rescue runs when a task of the block fails and clears the failure;
always runs either way; nested blocks hand an uncaught failure to the enclosing block; ``ansible_failed_task`` and
``ansible_failed_result`` tell the rescue what failed."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts

NESTED = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: outer
      block:
        - name: inner
          block:
            - name: before
              shell: echo before >> {{ workdir }}/log
            - name: breaks
              command: /bin/false
            - name: not reached
              shell: echo not-reached >> {{ workdir }}/log
          rescue:
            - name: inner rescue
              debug:
                msg: "{{ ansible_failed_task.name }} rc={{ ansible_failed_result.rc }}"
            - name: fails again
              fail:
                msg: rescue fails too
          always:
            - name: inner always
              shell: echo inner-always >> {{ workdir }}/log
      rescue:
        - name: outer rescue
          debug:
            msg: "{{ ansible_failed_task.name }}: {{ ansible_failed_result.msg }}"
      always:
        - name: outer always
          shell: echo outer-always >> {{ workdir }}/log
    - name: after the block
      shell: echo after >> {{ workdir }}/log
"""


def test_nested_rescue_and_always(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(NESTED)
    # The outer rescue caught what the inner rescue raised: the host did not fail.
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["before", "inner-always", "outer-always", "after"]
    assert run.msg("inner rescue") == {"h1": "breaks rc=1"}
    assert run.msg("outer rescue") == {"h1": "fails again: rescue fails too"}
    assert run.stats["h1"]["failures"] == 0
    assert run.stats["h1"]["rescued"] == 2


def test_a_block_without_rescue_runs_always_then_fails_the_host(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - block:
                - name: breaks on h1
                  command: /bin/false
                  when: inventory_hostname == 'h1'
              always:
                - name: always
                  shell: echo always >> {{ workdir }}/log
            - name: after the block
              shell: echo after >> {{ workdir }}/log
        """)
    assert run.exit_code == 2, run.output
    assert local_hosts.log("h1") == ["always"]
    assert local_hosts.log("h2") == ["always", "after"]
    assert run.stats["h1"]["failures"] == 1


def test_a_failure_in_always_fails_the_host_after_a_rescue(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - block:
                - command: /bin/false
              rescue:
                - name: rescued
                  shell: echo rescued >> {{ workdir }}/log
              always:
                - name: always breaks
                  fail:
                    msg: always fails
            - name: after the block
              shell: echo after >> {{ workdir }}/log
        """)
    assert run.exit_code == 2, run.output
    assert local_hosts.log("h1") == ["rescued"]
