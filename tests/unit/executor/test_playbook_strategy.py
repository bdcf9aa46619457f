"""Strategies (runner/executor/playbook.py): linear keeps the hosts in lockstep, task by task; free lets each host
go at its own pace. Every task appends ``host-task`` to a log all hosts share, so its lines are the run order."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts

TASKS = """
- hosts: all
  gather_facts: false
  strategy: {strategy}
  tasks:
    - name: first
      shell: echo {{{{ inventory_hostname }}}}-first >> {{{{ shared }}}}/log
    - name: second
      shell: echo {{{{ inventory_hostname }}}}-second >> {{{{ shared }}}}/log
"""


def test_linear_runs_a_task_on_every_host_before_the_next_task(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(TASKS.format(strategy="linear"))
    assert run.exit_code == 0, run.output
    log = local_hosts.log()
    assert sorted(log[:3]) == ["h1-first", "h2-first", "h3-first"]
    assert sorted(log[3:]) == ["h1-second", "h2-second", "h3-second"]
    assert run.task_headers() == ["first", "second"]


def test_free_lets_a_host_run_ahead_of_one_that_waits(local_hosts: LocalHosts) -> None:
    # h1 waits for a file that h2 writes in its second task: under linear h2 could not start that task before
    # h1 finished its first one, so the wait would time out; under free h2 runs ahead and h1 goes on.
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          strategy: free
          tasks:
            - name: wait for h2
              wait_for:
                path: "{{ shared }}/h2-ahead"
                timeout: 120
              when: inventory_hostname == 'h1'
            - name: run ahead
              shell: echo {{ inventory_hostname }} > {{ shared }}/{{ inventory_hostname }}-ahead
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("wait for h2") == ["h1"]
    assert run.ran("run ahead") == ["h1", "h2"]


def test_free_runs_every_task_on_every_host(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(TASKS.format(strategy="free"))
    assert run.exit_code == 0, run.output
    log = local_hosts.log()
    assert sorted(log) == sorted(f"{h}-{t}" for h in ("h1", "h2", "h3") for t in ("first", "second"))
    for host in ("h1", "h2", "h3"):  # each host in its own order
        assert log.index(f"{host}-first") < log.index(f"{host}-second")


THROTTLED = """
- hosts: all
  gather_facts: false
  strategy: free
  tasks:
    - name: one at a time
      shell: >-
        echo {{{{ inventory_hostname }}}}-start >> {{{{ shared }}}}/log; sleep 0.2;
        echo {{{{ inventory_hostname }}}}-end >> {{{{ shared }}}}/log
      throttle: {throttle}
"""


@pytest.mark.parametrize(("throttle", "args"), [(1, ()), (3, ("--forks", "1"))], ids=["throttle", "forks"])
def test_throttle_holds_across_the_hosts_of_a_free_play_and_never_exceeds_the_forks(
        local_hosts: LocalHosts, throttle: int, args: tuple[str, ...]) -> None:
    # Under free each host runs the task on its own; the limit must still let only one in at a time, so every
    # host's start and end lines are next to each other.
    run = local_hosts.play(THROTTLED.format(throttle=throttle), *args)
    assert run.exit_code == 0, run.output
    log = local_hosts.log()
    assert len(log) == 6
    for index in range(0, 6, 2):
        host = log[index].removesuffix("-start")
        assert log[index + 1] == f"{host}-end", log


def test_host_pinned_runs_as_free(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          strategy: host_pinned
          tasks:
            - {name: first, debug: {msg: one}}
            - {name: second, debug: {msg: two}}
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("second") == ["h1", "h2", "h3"]
