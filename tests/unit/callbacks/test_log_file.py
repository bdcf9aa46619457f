"""The run log: Ansible's record format, file mode, appending, colour-free lines, and faults that only warn."""

from __future__ import annotations

import getpass
import io
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.callbacks import make_callbacks
from runner.callbacks.base import HostStats, PlayInfo, TaskInfo
from runner.callbacks.default import DefaultDisplay
from runner.callbacks.log_file import LogFile, close_run_log, open_run_log, run_log

RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} p=(\d+) u=(\S+) n=provisioning "
                    r"(INFO|WARNING|ERROR)\| (.*)$")


@pytest.fixture(autouse=True)
def no_run_log() -> Iterator[None]:
    yield
    close_run_log()


def records(path: Path) -> list[tuple[str, str]]:
    """(level, first line of the message) of every record."""
    found = []
    for line in path.read_text().splitlines():
        match = RECORD.match(line)
        if match:
            found.append((match.group(3), match.group(4)))
    return found


def messages_of(path: Path) -> str:
    """The log's text with the records' stamps taken off."""
    return "\n".join(RECORD.sub(r"\4", line) for line in path.read_text().splitlines())


def test_a_record_is_stamped_as_ansible_stamps_its_log(tmp_path: Path) -> None:
    log = LogFile.open(tmp_path / "run.log", warn=pytest.fail)
    log.info("ok: [web1]")
    log.warning("[WARNING]: careful")
    log.error("ERROR: broken")
    log.close()
    lines = (tmp_path / "run.log").read_text().splitlines()
    matches = [RECORD.match(line) for line in lines]
    assert all(matches), lines
    assert {(m.group(1), m.group(2)) for m in matches if m} == {(str(os.getpid()), getpass.getuser())}
    assert [(m.group(3), m.group(4)) for m in matches if m] == [
        ("INFO", "ok: [web1]"), ("WARNING", "[WARNING]: careful"), ("ERROR", "ERROR: broken")]


def test_the_file_is_created_0600_whatever_the_umask(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        LogFile.open(tmp_path / "run.log", warn=pytest.fail).close()
    finally:
        os.umask(previous)
    assert (tmp_path / "run.log").stat().st_mode & 0o777 == 0o600


def test_an_existing_file_keeps_its_mode_and_is_appended_to(tmp_path: Path) -> None:
    path = tmp_path / "run.log"
    path.write_text("written before\n")
    path.chmod(0o640)
    for text in ("first run", "second run"):
        log = LogFile.open(path, warn=pytest.fail)
        log.info(text)
        log.close()
    assert path.stat().st_mode & 0o777 == 0o640
    assert path.read_text().startswith("written before\n")
    assert [message for _, message in records(path)] == ["first run", "second run"]


def test_a_multi_line_message_is_one_record_and_blank_lines_none(tmp_path: Path) -> None:
    log = LogFile.open(tmp_path / "run.log", warn=pytest.fail)
    log.info("\nTASK [x] ***")
    log.info("")
    log.info('ok: [web1] => {\n    "msg": "hi"\n}')
    log.close()
    text = (tmp_path / "run.log").read_text()
    assert [message for _, message in records(tmp_path / "run.log")] == ["TASK [x] ***", "ok: [web1] => {"]
    assert text.endswith('ok: [web1] => {\n    "msg": "hi"\n}\n')


def test_the_view_writes_the_lines_it_prints_to_the_log_without_colour(tmp_path: Path) -> None:
    log = LogFile.open(tmp_path / "run.log", warn=pytest.fail)
    out, err = io.StringIO(), io.StringIO()
    view = DefaultDisplay(stream=out, err=err, force_color=True, log=log)
    task = TaskInfo(name="install", module="apt", position="site.yml:3:7")
    view.play_start(PlayInfo(name="web", pattern="web", position="site.yml:1:3"), ["web1"])
    view.task_start(task, ["web1"])
    view.host_result(task, "web1", {"_status": "changed", "changed": True, "warnings": ["mind the gap"]})
    view.playbook_end({"web1": HostStats(ok=1, changed=1)}, 0)
    log.close()
    assert "\x1b[" in out.getvalue()  # the terminal is coloured ...
    text = (tmp_path / "run.log").read_text()
    assert "\x1b" not in text  # ... the log is not
    printed = [line for line in re.sub(r"\x1b\[[0-9;]*m", "", out.getvalue()).splitlines() if line]
    assert [message for level, message in records(tmp_path / "run.log") if level == "INFO"] == printed
    assert ("WARNING", "[WARNING]: mind the gap") in records(tmp_path / "run.log")


def test_the_json_view_logs_the_document_it_prints(tmp_path: Path) -> None:
    log = LogFile.open(tmp_path / "run.log", warn=pytest.fail)
    out = io.StringIO()
    view = make_callbacks("json", [], 0, False, True, stream=out, log=log)
    view.playbook_end({"web1": HostStats(ok=1)}, 0)
    log.close()
    assert json.loads(out.getvalue())["stats"]["web1"]["ok"] == 1
    assert messages_of(tmp_path / "run.log") == out.getvalue().rstrip("\n")


def test_a_path_that_cannot_be_written_is_a_warning_and_no_log(tmp_path: Path) -> None:
    warnings: list[str] = []
    assert open_run_log(tmp_path / "missing" / "run.log", warnings.append, "env: ANSIBLE_LOG_PATH") is None
    assert open_run_log(tmp_path, warnings.append) is None
    assert run_log() is None
    assert warnings == [
        f"cannot write the log file {tmp_path / 'missing' / 'run.log'} (log_path, set in env: ANSIBLE_LOG_PATH): "
        "No such file or directory; the run goes on without a log",
        f"cannot write the log file {tmp_path}: Is a directory; the run goes on without a log"]


def test_a_write_that_fails_warns_once_and_the_run_goes_on() -> None:
    warnings: list[str] = []
    log = open_run_log(Path("/dev/full"), warnings.append)  # every write fails: no space left
    assert log is not None and run_log() is log
    log.info("first")
    log.info("second")
    assert warnings == ["writing the log file /dev/full failed (No space left on device); the run goes on "
                        "without it"]


def test_without_log_path_no_log_is_opened() -> None:
    assert open_run_log(None, pytest.fail) is None
    assert run_log() is None
