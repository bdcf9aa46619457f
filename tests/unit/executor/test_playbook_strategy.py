"""Strategies (runner/executor/playbook.py): linear keeps the hosts in lockstep, task by task; free lets each host
go at its own pace; host_pinned as free, with at most forks hosts in the play at once. Every task appends
``host-task`` to a log all hosts share, so its lines are the run order."""

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


def test_host_pinned_keeps_at_most_forks_hosts_in_the_play_each_to_its_end(local_hosts: LocalHosts) -> None:
    # With two forks, the third host starts only when one of the first two has gone through every section and
    # its handler, as under Ansible's host_pinned.
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          strategy: host_pinned
          pre_tasks:
            - {name: start, shell: "echo {{ inventory_hostname }}-start >> {{ shared }}/log"}
          tasks:
            - {name: work, shell: sleep 0.3}
          post_tasks:
            - {name: notify, debug: {msg: done}, changed_when: true, notify: end}
          handlers:
            - {name: end, shell: "echo {{ inventory_hostname }}-end >> {{ shared }}/log"}
        """, "--forks", "2")
    assert run.exit_code == 0, run.output
    log = local_hosts.log()
    assert sorted(log) == sorted(f"{h}-{e}" for h in ("h1", "h2", "h3") for e in ("start", "end"))
    running = 0
    for line in log:
        running += 1 if line.endswith("-start") else -1
        assert running <= 2, log
