"""How many of Ansible's polls an async task waited for would have found running (runner/executor/module_call.py),
and the lines the default view prints from that."""

from __future__ import annotations

import io
import re

import pytest

from runner.callbacks.base import TaskInfo
from runner.callbacks.default import DefaultDisplay
from runner.callbacks.results import ASYNC_POLLS, RETRIED
from runner.executor.module_call import unfinished_polls
from runner.util.async_jobs import job_id, timed_out_job


@pytest.mark.parametrize(("seconds", "poll", "limit", "polls"), [
    (0.2, 1, 10, 0),  # done before the first poll
    (1.0, 1, 10, 0),  # the first poll finds it done
    (3.5, 1, 10, 3),  # polls at 1, 2 and 3 s find it running
    (7.0, 2, 10, 3),
    (30.0, 1, 5, 5),  # never past the limit
])
def test_polls_that_find_the_job_running(seconds: float, poll: int, limit: int, polls: int) -> None:
    assert unfinished_polls(seconds, poll, limit) == polls


def test_the_default_view_prints_ansibles_async_lines() -> None:
    out = io.StringIO()
    view = DefaultDisplay(stream=out, nocolor=True)
    task = TaskInfo(name="waited", module="command", position="site.yml:3:7")
    view.host_result(task, "web1", {"changed": True, "ansible_job_id": "j1.2", ASYNC_POLLS: 2, "_status": "changed"})
    view.host_result(task, "web2", {"failed": True, "ansible_job_id": "j3.4", ASYNC_POLLS: 0, "_status": "failed",
                                    "msg": "no"})
    lines = out.getvalue().splitlines()
    assert lines[lines.index("ASYNC OK on web1: jid=j1.2") - 2:][:4] == [
        "ASYNC POLL on web1: jid=j1.2 started=True finished=False",
        "ASYNC POLL on web1: jid=j1.2 started=True finished=False",
        "ASYNC OK on web1: jid=j1.2",
        "changed: [web1]"]
    assert "ASYNC FAILED on web2: jid=j3.4" in lines


def test_the_default_view_prints_ansibles_line_for_each_attempt_run_again() -> None:
    out = io.StringIO()
    view = DefaultDisplay(stream=out, nocolor=True)
    task = TaskInfo(name="wait for it", module="command", position="site.yml:3:7")
    tries = [{"failed": True, "attempts": 1, "retries": 3}, {"failed": True, "attempts": 2, "retries": 3}]
    view.host_result(task, "web1", {"changed": True, "attempts": 3, "_status": "changed", RETRIED: tries})
    lines = out.getvalue().splitlines()
    assert lines[lines.index("changed: [web1]") - 2:][:3] == [
        "FAILED - RETRYING: [web1]: wait for it (2 retries left).",
        "FAILED - RETRYING: [web1]: wait for it (1 retries left).",
        "changed: [web1]"]


def test_a_job_over_its_limit_names_its_job_as_its_last_poll_found_it() -> None:
    # ansible-core's failed result keeps the last poll (async_result), whose id its ASYNC lines show
    result = timed_out_job(1)
    assert result["failed"] is True and result["msg"] == "async task did not complete within the requested time - 1s"
    polled = result["async_result"]
    assert isinstance(polled, dict) and polled["finished"] is False and polled["started"] is True
    assert re.fullmatch(r"j\d+\.\d+", str(polled["ansible_job_id"])) and job_id(result) == polled["ansible_job_id"]
    out = io.StringIO()
    view = DefaultDisplay(stream=out, err=io.StringIO(), nocolor=True)
    task = TaskInfo(name="over", module="command", position="site.yml:3:7")
    view.host_result(task, "web1", {**result, ASYNC_POLLS: 1, "_status": "failed"})
    lines = out.getvalue().splitlines()
    assert f"ASYNC POLL on web1: jid={polled['ansible_job_id']} started=True finished=False" in lines
    assert f"ASYNC FAILED on web1: jid={polled['ansible_job_id']}" in lines
