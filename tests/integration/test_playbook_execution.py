"""How a run goes through hosts, on real hosts: serial batches, failure policies, delegation and run_once, the
free strategy, throttle, environment, become, extra vars from a file, --start-at-task."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from runner.testenv import SUDOPW_PASSWORD
from tests.integration.playbook_run import HOSTS
from tests.support.playbook_run import PLAYBOOKS, run_playbook

pytestmark = pytest.mark.hosts


def test_serial_batches(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "serial.yml")
    assert run.exit_code == 0, run.output
    assert run.msg("batch of one") == {"host1": "host1", "host2": "host2", "host3": "host3"}
    assert run.output.count("TASK [batch of one]") == 3  # one batch after the other
    # 67% of three hosts is two (rounded down, as Ansible does), then the rest.
    assert run.msg("batch of a percentage") == {"host1": "host1,host2", "host2": "host1,host2", "host3": "host3"}
    assert run.msg("batches from a list") == {"host1": "host1 of 3", "host2": "host2,host3 of 3",
                                              "host3": "host2,host3 of 3"}


def test_max_fail_percentage_tolerates_up_to_the_limit_then_stops_the_run(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "max_fail.yml")
    assert run.exit_code == 2
    assert run.ran("one in three failed") == ["host2", "host3"]
    assert run.ran("two in three failed") == []
    assert run.ran("the next play") == []


def test_any_errors_fatal_stops_every_host(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "any_errors_fatal.yml")
    assert run.exit_code == 2
    assert run.ran("after the failure") == []
    assert run.ran("the next play") == []
    assert run.stats["host2"]["failures"] == 1


def test_delegation_and_run_once(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "delegation.yml")
    assert run.exit_code == 0, run.output
    assert set(run.msg("report delegation").values()) == {f"host3 {socket.gethostname()}"}
    assert "ok: [host1 -> host3]" in run.output and "ok: [host2 -> localhost]" in run.output
    # run_once: one host runs it and is shown; its registered result and its set_fact reach every host.
    assert list(run.task("once")) == ["host1"]
    assert set(run.msg("report once").values()) == {"host1 host1"}
    # delegate_facts: the facts belong to the host they were gathered on.
    assert run.msg("report delegated facts") == {"host1": "host3 none", "host2": "host3 none",
                                                 "host3": "host3 host3"}


def test_free_strategy_lets_a_host_wait_for_another_ones_later_task(inventory_path: Path, tmp_path: Path) -> None:
    # Under linear, host2 could not raise the flag before host1 finished waiting for it (and gave up).
    run = run_playbook(inventory_path, "free.yml", "-e", f"flag={tmp_path / 'flag'}")
    assert run.exit_code == 0, run.output
    assert run.ran("host1 waits for host2") == ["host1"]
    assert run.ran("host2 raises the flag") == ["host2"]


def test_task_keywords_throttle_environment_become_and_extra_vars_file(inventory_path: Path,
                                                                        tmp_path: Path) -> None:
    log = tmp_path / "throttle.log"
    run = run_playbook(inventory_path, "keywords.yml", "-e", f"log={log}", "-e", f"sudopw_password={SUDOPW_PASSWORD}",
                       "-e", f"@{PLAYBOOKS / 'extra_vars.yml'}")
    assert run.exit_code == 0, run.output
    # throttle 1: one host at a time, so every start is followed by its own end.
    assert log.read_text().split() == ["start", "end"] * len(HOSTS)
    assert run.msg("report") == {host: f"play-{host} deploy root root from the extra vars file" for host in HOSTS}


def test_start_at_task_skips_what_comes_before(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "start_at.yml", "--start-at-task", "Start here*")
    assert run.exit_code == 0, run.output
    assert run.task_headers() == ["Start here please", "in the block after", "always of the block", "late",
                                  "next play task"]


def test_start_at_task_matching_nothing_is_a_bad_option(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "start_at.yml", "--start-at-task", "no such task", subprocess_run=True)
    assert run.exit_code == 5
    assert "no task matches --start-at-task 'no such task'" in run.output and "Traceback" not in run.output


def test_meta_end_host_and_end_play(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "meta.yml")
    assert run.exit_code == 0, run.output
    assert run.ran("after end_host") == ["host1", "host3"]
    assert run.ran("after end_play") == []
    assert run.msg("the next play") == {"host1": True, "host2": "nothing", "host3": True}


def test_a_task_timeout_stops_the_module_and_the_host_goes_on(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "timeout.yml")
    assert run.exit_code == 0, run.output
    slow = run.tasks("too slow")[0]["host1"]
    assert slow["failed"] and slow["msg"] == "Timed out after 1 second(s)." and slow["timedout"] == {"period": 1}
    assert run.tasks("the next task")[0]["host1"]["stdout"] == "still here"
    assert run.tasks("what is left of the slow one")[0]["host1"]["stdout"] == ""
