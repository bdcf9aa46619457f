"""Serial batches (runner/executor/playbook.py): numbers, percentages of the play's hosts rounded down, lists whose
last size repeats, and a batch where every host failed stops the batches after it."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts

BATCHES = """
- hosts: all
  gather_facts: false
  serial: {serial}
  tasks:
    - name: batch
      shell: echo "{{{{ ansible_play_batch | join(',') }}}}" >> {{{{ shared }}}}/log
      run_once: true
"""


@pytest.mark.parametrize(("serial", "batches"), [
    ("1", ["h1", "h2", "h3"]),
    ("2", ["h1,h2", "h3"]),
    ("'67%'", ["h1,h2", "h3"]),  # 67% of 3 is 2.01: two hosts
    ("'10%'", ["h1", "h2", "h3"]),  # under one host rounds up to one
    ("[1, 2]", ["h1", "h2,h3"]),
    ("[1, '50%']", ["h1", "h2", "h3"]),  # the last size repeats
], ids=["number", "number-rest", "percent", "percent-at-least-one", "list", "list-last-repeats"])
def test_serial_splits_the_play_hosts_into_batches(local_hosts: LocalHosts, serial: str, batches: list[str]) -> None:
    run = local_hosts.play(BATCHES.format(serial=serial))
    assert run.exit_code == 0, run.output
    assert local_hosts.log() == batches


def test_a_batch_whose_hosts_all_failed_stops_the_rest(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          serial: 1
          tasks:
            - name: fail the first batch
              fail:
                msg: first batch fails
              when: inventory_hostname == 'h1'
            - name: after
              debug:
                msg: ran
        - hosts: all
          gather_facts: false
          tasks:
            - name: next play
              debug:
                msg: ran
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("fail the first batch") == ["h1"]
    # Neither the later batches of the play nor the later plays run.
    assert run.task_headers() == ["fail the first batch"]
    assert all(run.stats.get(host, {}).get("ok", 0) == 0 for host in ("h2", "h3"))


def test_a_batch_with_a_host_left_goes_on_to_the_next_batch(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          serial: 2
          tasks:
            - name: h1 fails
              fail:
                msg: h1 fails
              when: inventory_hostname == 'h1'
            - name: after
              debug:
                msg: ran
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("after") == ["h2", "h3"]


def test_max_fail_percentage_counts_within_the_batch(local_hosts: LocalHosts) -> None:
    # One failed host of a batch of two is 50%, over 40: the play stops before the next batch.
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          serial: 2
          max_fail_percentage: 40
          tasks:
            - name: h1 fails
              fail:
                msg: h1 fails
              when: inventory_hostname == 'h1'
            - name: after
              debug:
                msg: ran
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("after") == []
    assert "h3" not in run.ran("h1 fails")


def test_end_play_ends_the_later_batches_and_end_batch_only_its_own(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          serial: 1
          tasks:
            - name: first play
              debug:
                msg: ran
            - meta: end_play
        - hosts: all
          gather_facts: false
          serial: 1
          tasks:
            - name: second play
              debug:
                msg: ran
            - meta: end_batch
            - name: after end_batch
              debug:
                msg: ran
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("first play") == ["h1"]
    assert run.ran("second play") == ["h1", "h2", "h3"]
    assert run.ran("after end_batch") == []
