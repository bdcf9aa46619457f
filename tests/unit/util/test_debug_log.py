"""Ansible's debug log (runner/util/debug_log.py): off by default and silent, on it writes ansible-core's
``<pid> <time>: <message>`` lines to stdout, stamped with the controller's pid even when a forked worker writes."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest

from runner.util.debug_log import DEBUG_LOG, DebugLog

LINE = re.compile(r"^ *(\d+) \d+\.\d{5}: (.*)$")


@pytest.fixture
def restored() -> Iterator[None]:
    """DEBUG_LOG as the test found it: it is the process's, which other tests' commands configure too."""
    saved = (DEBUG_LOG.enabled, DEBUG_LOG.pid, DEBUG_LOG.paint)
    yield
    DEBUG_LOG.enabled, DEBUG_LOG.pid, DEBUG_LOG.paint = saved


def test_off_writes_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    log = DebugLog()
    log.debug("META: noop")
    assert capfd.readouterr() == ("", "")


def test_a_line_is_ansible_cores_stamp_then_the_message_on_stdout(capfd: pytest.CaptureFixture[str]) -> None:
    log = DebugLog()
    log.configure(True)
    log.debug("META: triggered running handlers for web1")
    log.debug("in run()", host="web1")
    out, err = capfd.readouterr()
    assert err == ""
    first, second = out.splitlines()
    stamp = LINE.match(first)
    assert stamp is not None and stamp.groups() == (str(os.getpid()), "META: triggered running handlers for web1")
    assert first.startswith(f"{os.getpid():6d} ")  # the pid six wide, as ansible-core's "%6d"
    assert re.match(r"^ *\d+ \d+\.\d{5} \[web1\]: in run\(\)$", second)


def test_paint_colours_the_whole_line(capfd: pytest.CaptureFixture[str]) -> None:
    log = DebugLog()
    log.configure(True, paint=lambda text: f"<{text}>")
    log.debug("x")
    assert re.match(r"^< *\d+ \d+\.\d{5}: x>$", capfd.readouterr().out.strip())


def test_a_forked_worker_writes_to_the_same_stdout_with_the_controllers_pid(
    capfd: pytest.CaptureFixture[str], restored: None
) -> None:
    DEBUG_LOG.configure(True)
    controller = os.getpid()
    child = os.fork()
    if child == 0:  # the worker: inherits the setting, as the run's workers do
        try:
            DEBUG_LOG.debug("from the worker")
        finally:
            os._exit(0)
    os.waitpid(child, 0)
    DEBUG_LOG.debug("from the controller")
    lines = [LINE.match(line) for line in capfd.readouterr().out.splitlines()]
    assert [match.groups() if match else None for match in lines] == [
        (str(controller), "from the worker"),
        (str(controller), "from the controller"),
    ]


def test_configured_off_again_is_silent(capfd: pytest.CaptureFixture[str]) -> None:
    log = DebugLog()
    log.configure(True)
    log.configure(False)
    log.debug("nothing")
    assert capfd.readouterr().out == ""
