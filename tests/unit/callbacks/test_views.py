"""Choosing the views (make_callbacks), the minimal/oneline playbook views and the live progress view."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from runner.callbacks import make_callbacks, parse_report
from runner.callbacks.base import HostStats, PlayInfo, TaskInfo
from runner.callbacks.default import DefaultDisplay
from runner.callbacks.json_report import JsonReport
from runner.callbacks.junit_report import JunitReport
from runner.callbacks.minimal import MinimalDisplay
from runner.callbacks.progress import ProgressDisplay
from runner.errors import ExitCode, OptionError

INSTALL = TaskInfo(name="install", module="ansible.builtin.apt", position="site.yml:5:7")


@pytest.fixture(autouse=True)
def _no_forced_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROVISIONING_FORCE_COLOR", raising=False)


# -- make_callbacks -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "kind"), [("default", DefaultDisplay), ("minimal", MinimalDisplay),
                                            ("oneline", MinimalDisplay), ("json", JsonReport),
                                            ("progress", DefaultDisplay)])
def test_stdout_callback_off_a_terminal(name: str, kind: type) -> None:
    callbacks = make_callbacks(name, [], 0, False, True, stream=io.StringIO())
    assert len(callbacks.callbacks) == 1 and type(callbacks.callbacks[0]) is kind


def test_progress_on_a_terminal_is_the_live_view() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert isinstance(make_callbacks("progress", [], 0, False, True, stream=Tty()).callbacks[0], ProgressDisplay)
    assert isinstance(make_callbacks("default", [], 0, False, True, stream=Tty()).callbacks[0], DefaultDisplay)


def test_reports_follow_the_stdout_view(tmp_path: Path) -> None:
    callbacks = make_callbacks("default", [f"junit:{tmp_path}/a.xml", f"json:{tmp_path}/a.json",
                                           f"JUNIT:{tmp_path}/b.xml"], 0, False, True)
    assert [type(c) for c in callbacks.callbacks] == [DefaultDisplay, JunitReport, JsonReport, JunitReport]
    assert parse_report("json:~/r.json") == ("json", Path.home() / "r.json")


def test_display_ok_and_skipped_hosts_settings_hide_lines() -> None:
    out = io.StringIO()
    callbacks = make_callbacks("default", [], 0, False, True, display_ok_hosts=False, display_skipped_hosts=False,
                               stream=out)
    callbacks.task_start(INSTALL, ["a", "b", "c"])
    callbacks.host_result(INSTALL, "a", {"changed": False, "_status": "ok"})
    callbacks.host_result(INSTALL, "b", {"skipped": True, "_status": "skipped"})
    callbacks.host_result(INSTALL, "c", {"changed": True, "_status": "changed"})
    assert out.getvalue().splitlines()[2:] == ["changed: [c]"]


@pytest.mark.parametrize(("spec", "message"), [
    ("junit", "expected KIND:FILE"),
    ("junit:", "expected KIND:FILE"),
    ("xml:out.xml", "unknown report kind 'xml'"),
    ("jsn:out.json", "did you mean 'json'"),
])
def test_bad_report_forms_are_option_errors(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message) as caught:
        make_callbacks("default", [spec], 0, False, True)
    assert caught.value.exit_code == ExitCode.BAD_OPTIONS


def test_report_into_a_directory_is_an_option_error(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="is a directory"):
        make_callbacks("default", [f"json:{tmp_path}"], 0, False, True)


def test_unknown_stdout_callback_suggests_a_name() -> None:
    with pytest.raises(OptionError, match="unknown stdout callback 'minimall'") as caught:
        make_callbacks("minimall", [], 0, False, True)
    assert "did you mean 'minimal'" in str(caught.value)


# -- minimal and oneline ------------------------------------------------------------------------------------
def test_minimal_prints_host_state_and_json() -> None:
    out = io.StringIO()
    view = make_callbacks("minimal", [], 0, False, True, stream=out)
    view.play_start(PlayInfo("p", "all", "site.yml:1:3"), ["web1"])
    view.task_start(INSTALL, ["web1"])
    view.host_result(INSTALL, "web1", {"changed": True, "_status": "changed", "_duration": 1.0})
    shell = TaskInfo(name="uptime", module="shell", position="site.yml:9:7")
    view.host_result(shell, "web1", {"changed": True, "rc": 0, "stdout": "up 3 days", "_status": "changed"})
    assert out.getvalue() == 'web1 | CHANGED => {\n    "changed": true\n}\nweb1 | CHANGED | rc=0 >>\nup 3 days\n'


def test_oneline_censors_no_log() -> None:
    out = io.StringIO()
    view = make_callbacks("oneline", [], 0, False, True, stream=out)
    secret = TaskInfo(name="secret", module="user", position="site.yml:9:7", no_log=True)
    view.host_result(secret, "web1", {"changed": True, "password": "hunter2", "_status": "changed"})
    assert out.getvalue().startswith('web1 | CHANGED => {"censored": "the output has been hidden')
    assert "hunter2" not in out.getvalue()


# -- progress -----------------------------------------------------------------------------------------------
def live_view() -> tuple[ProgressDisplay, io.StringIO]:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100, color_system=None)
    return ProgressDisplay(console=console, nocolor=True), screen


def test_progress_counts_and_status_text() -> None:
    view, _ = live_view()
    view.play_start(PlayInfo("web servers", "web", "site.yml:1:3"), ["a", "b", "c"])
    view.task_start(INSTALL, ["a", "b", "c"])
    view.host_result(INSTALL, "a", {"changed": True, "_status": "changed"})
    view.host_result(INSTALL, "b", {"failed": True, "_status": "failed", "_ignored": True})
    status = view.summary().plain
    assert "PLAY [web servers]" in status and "TASK [install]" in status
    assert "hosts 2/3" in status
    assert "ok=0 changed=1 failed=0 unreachable=0 skipped=0 ignored=1" in status


def test_progress_prints_failures_and_recap_in_full_but_not_ok_lines() -> None:
    view, screen = live_view()
    view.playbook_start("site.yml")
    view.play_start(PlayInfo("web servers", "web", "site.yml:1:3"), ["a", "b"])
    view.task_start(INSTALL, ["a", "b"])
    view.host_result(INSTALL, "a", {"changed": True, "_status": "changed"})
    view.host_result(INSTALL, "b", {"failed": True, "changed": False, "msg": "no such package", "_status": "failed"})
    view.warning("deprecated option")
    view.playbook_end({"a": HostStats(ok=1, changed=1), "b": HostStats(failed=1)}, 2)
    text = screen.getvalue()
    assert "PLAY [web servers] ****" in text
    assert "TASK [install] ****" in text
    assert 'fatal: [b]: FAILED! => {"changed": false, "msg": "no such package"}' in text
    assert "[WARNING]: deprecated option" in text
    assert "b                          : ok=0    changed=0    unreachable=0    failed=1" in text
    assert "changed: [a]" not in text
    assert not view.live.is_started
