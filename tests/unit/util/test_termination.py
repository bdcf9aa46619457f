"""Stopping signals outside a run (while loading or compiling): the exit code a shell expects, one message, no
traceback; a signal ignored at start stays ignored; the handlers in place before come back."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from runner.cli.common import report_errors
from runner.executor.outcome import exit_code_for
from runner.util.termination import exit_code_for_signal, raising_on_termination


def test_exit_codes_for_stopping_signals() -> None:
    assert exit_code_for_signal(signal.SIGINT) == 99  # Ansible's code for Ctrl-C
    assert exit_code_for_signal(signal.SIGTERM) == 143
    assert exit_code_for_signal(signal.SIGHUP) == 129
    assert exit_code_for(stopped_by=signal.SIGTERM, unreachable=True, failed=True) == 143
    assert exit_code_for(stopped_by=None, unreachable=False, failed=True) == 2


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_a_command_told_to_stop_exits_with_its_code_and_a_message(signum: int, code: int,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    before = signal.getsignal(signum)

    @report_errors
    def command() -> int:
        os.kill(os.getpid(), signum)
        time.sleep(30)  # the signal ends the wait at once
        return 0

    with pytest.raises(SystemExit) as exited:
        command()
    assert exited.value.code == code
    assert capsys.readouterr().err == f"[ERROR]: Terminated by {signal.Signals(signum).name}: stopped the run\n"
    assert signal.getsignal(signum) is before


@pytest.fixture
def hangup_ignored() -> Iterator[None]:
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup starts a command
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_a_hangup_ignored_at_start_stays_ignored(hangup_ignored: None) -> None:
    with raising_on_termination():
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        os.kill(os.getpid(), signal.SIGHUP)  # nothing happens
