"""Failure policies (runner/executor/playbook.py): any_errors_fatal, max_fail_percentage, ignore_errors and
ignore_unreachable, each seen from which hosts ran the task after the failure."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts

H1_FAILS = """
- hosts: all
  gather_facts: false
  {policy}
  tasks:
    - name: h1 fails
      fail:
        msg: h1 fails
      when: inventory_hostname == 'h1'
    - name: after
      debug:
        msg: ran
"""


def h1_fails(policy: str) -> str:
    return H1_FAILS.replace("{policy}", policy)


def test_without_a_policy_only_the_failed_host_stops(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(h1_fails(""))
    assert run.exit_code == 2, run.output
    assert run.ran("after") == ["h2", "h3"]


def test_any_errors_fatal_stops_every_host_of_the_play(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(h1_fails("any_errors_fatal: true"))
    assert run.exit_code == 2, run.output
    assert run.ran("after") == []


def test_any_errors_fatal_on_a_task(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - name: h1 fails
              fail:
                msg: h1 fails
              when: inventory_hostname == 'h1'
              any_errors_fatal: true
            - name: after
              debug:
                msg: ran
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("after") == []


def test_any_errors_fatal_stops_every_host_when_a_handler_fails(local_hosts: LocalHosts) -> None:
    # As ansible-core: a handler that fails on one host under any_errors_fatal stops the play for all of them.
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          any_errors_fatal: true
          tasks:
            - name: notify
              debug:
                msg: change
              changed_when: true
              notify: h1 fails
            - meta: flush_handlers
            - name: after
              debug:
                msg: ran
          handlers:
            - name: h1 fails
              fail:
                msg: h1 fails
              when: inventory_hostname == 'h1'
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("after") == []


@pytest.mark.parametrize(("percentage", "after"), [
    (30, []),  # one host of three is 33%: over 30, the play stops
    (34, ["h2", "h3"]),  # not over 34: the others go on
], ids=["over", "not-over"])
def test_max_fail_percentage_stops_the_play_only_when_exceeded(local_hosts: LocalHosts, percentage: int,
                                                               after: list[str]) -> None:
    run = local_hosts.play(h1_fails(f"max_fail_percentage: {percentage}"))
    assert run.exit_code == 2, run.output
    assert run.ran("after") == after


def test_ignore_errors_lets_the_host_go_on_and_counts_it_ignored(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: breaks
              command: /bin/false
              ignore_errors: true
              register: broken
            - name: after
              debug:
                msg: "rc={{ broken.rc }} failed={{ broken is failed }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("after") == {"h1": "rc=1 failed=True"}
    assert "...ignoring" in run.output
    # As Ansible counts it: the ignored failure (a command, so changed) is ok, changed and ignored.
    assert run.stats["h1"] == {"ok": 2, "changed": 1, "ignored": 1, "failures": 0, "unreachable": 0, "skipped": 0,
                               "rescued": 0}


def test_an_unreachable_host_stops_unless_ignore_unreachable(local_hosts: LocalHosts) -> None:
    local_hosts.add_unreachable("gone")
    playbook = """
        - hosts: h1,gone
          gather_facts: false
          tasks:
            - name: reach it
              ping:
              ignore_unreachable: {ignore}
            - name: after
              debug:
                msg: ran
        """
    stopped = local_hosts.play(playbook.replace("{ignore}", "false"))
    assert stopped.exit_code == 4, stopped.output
    assert stopped.ran("after") == ["h1"]
    assert stopped.task("reach it")["gone"]["unreachable"] is True

    ignored = local_hosts.play(playbook.replace("{ignore}", "true"))
    assert ignored.exit_code == 0, ignored.output
    assert ignored.ran("after") == ["gone", "h1"]
    assert ignored.stats["gone"] == {"ok": 2, "changed": 0, "ignored": 1, "failures": 0, "unreachable": 0,
                                     "skipped": 0, "rescued": 0}


def test_a_plays_ignore_unreachable_covers_its_fact_gathering(local_hosts: LocalHosts) -> None:
    local_hosts.add_unreachable("gone")
    run = local_hosts.play("""
        - hosts: h1,gone
          gather_facts: true
          ignore_unreachable: true
          tasks:
            - name: after
              debug:
                msg: ran
        """)
    assert run.exit_code == 0, run.output
    assert run.task("Gathering Facts")["gone"]["unreachable"] is True
    assert run.ran("after") == ["gone", "h1"]


@pytest.mark.parametrize(("host", "task", "keyword", "exit_code"), [
    ("gone", "ping:", "ignore_unreachable", 4),
    ("h1", "fail: {msg: no}", "ignore_errors", 2),
])
def test_a_loops_ignore_keyword_is_read_with_each_item(local_hosts: LocalHosts, host: str, task: str, keyword: str,
                                                       exit_code: int) -> None:
    local_hosts.add_unreachable("gone")
    playbook = f"""
        - hosts: {host}
          gather_facts: false
          tasks:
            - name: may fail
              {task}
              {keyword}: "{{{{ item }}}}"
              loop: ITEMS
            - name: after
              debug:
                msg: ran
        """
    # ansible-core 2.21: true for any item lets the whole task pass (2.19 wanted every failing item's true)
    for items in ("[true, false]", "[false, true]"):
        one_item_ignores = local_hosts.play(playbook.replace("ITEMS", items))
        assert one_item_ignores.exit_code == 0, one_item_ignores.output
        assert one_item_ignores.ran("after") == [host]
    # a value that is no boolean counts as false
    for items in ("[false, false]", "[5]"):
        none_ignores = local_hosts.play(playbook.replace("ITEMS", items))
        assert none_ignores.exit_code == exit_code, none_ignores.output
        assert none_ignores.ran("after") == []


def test_any_errors_fatal_sends_every_host_to_the_rescue_and_always_of_its_block(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          any_errors_fatal: true
          tasks:
            - block:
                - name: h1 fails
                  fail: {msg: h1 fails}
                  when: inventory_hostname == 'h1'
                - name: rest of block
                  debug: {msg: block}
              rescue:
                - name: rescuing
                  debug: {msg: rescue}
                - name: rescue fails
                  command: /bin/false
              always:
                - name: always
                  debug: {msg: always}
            - name: after
              debug: {msg: ran}
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("rest of block") == []
    assert run.ran("rescuing") == ["h1", "h2"] and run.ran("always") == ["h1", "h2"]
    assert run.ran("after") == []
    # h2 failed no task of its own in the block: its failure in the rescue is not counted as rescued
    assert {host: (stats["rescued"], stats["failures"]) for host, stats in run.stats.items()} == {
        "h1": (1, 1), "h2": (0, 1)}


def test_any_errors_fatal_goes_on_when_the_rescue_handles_the_failure(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          any_errors_fatal: true
          tasks:
            - block:
                - name: h1 fails
                  fail: {msg: h1 fails}
                  when: inventory_hostname == 'h1'
              rescue:
                - name: rescuing
                  debug: {msg: rescue}
            - name: after
              debug: {msg: ran}
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("after") == ["h1", "h2"]


def test_force_handlers_run_after_any_errors_fatal_stops_the_play(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          any_errors_fatal: true
          force_handlers: true
          tasks:
            - name: notifying
              debug: {msg: notify}
              changed_when: true
              notify: the handler
            - name: failing
              fail: {msg: stop}
          handlers:
            - name: the handler
              debug: {msg: handled}
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("the handler") == ["h1"]


def test_clear_host_errors_in_an_always_lets_the_host_go_on(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - block:
                - {name: failing, fail: {msg: x}}
              always:
                - meta: clear_host_errors
            - {name: after, debug: {msg: on}}
        """)
    assert run.ran("after") == ["h1"], run.output
