"""Run records under stress: runs opening and writing one SQLite database at once, and a run killed with SIGKILL.

Real runs of the installed command (local connection, no test host); each test kills only the run it started.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

from runner.records.sqlite_store import SqliteStore
from tests.support.processes import processes_with
from tests.support.records import TASKS, busy_playbook, rows, runs_command, start_run, write


def test_two_runs_at_once_into_one_sqlite_database_lose_nothing(tmp_path: Path) -> None:
    database = str(tmp_path / "runs.db")
    first = start_run(busy_playbook(tmp_path, "one.yml"), database)
    second = start_run(busy_playbook(tmp_path, "two.yml"), database)
    for process in (first, second):
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output
        assert "WARNING" not in output, output
    runs = rows(database, "runs")
    assert sorted(Path(run["playbook"]).name for run in runs) == ["one.yml", "two.yml"]
    assert {run["status"] for run in runs} == {"ok"}
    results = rows(database, "host_results")
    for run in runs:
        assert len([r for r in results if r["run_id"] == run["id"]]) == TASKS
    assert len(rows(database, "tasks")) == 2 * TASKS


def _wait_for(condition, timeout: float = 120) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def _recorded_results(database: str) -> int:
    if not Path(database).exists():
        return 0
    try:
        with sqlite3.connect(database, timeout=30) as connection:
            return connection.execute("SELECT count(*) FROM host_results").fetchone()[0]
    except sqlite3.OperationalError:
        return 0  # the tables are not there yet


def test_a_run_killed_with_sigkill_is_marked_interrupted_on_the_next_open(tmp_path: Path) -> None:
    marker = f"{os.getpid() % 1000}.{time.monotonic_ns() % 1000}"  # a sleep of this odd length is this test's
    playbook = write(tmp_path, "slow.yml", f"""
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: quick
              debug: msg=started
            - name: slow
              command: sleep 6{marker}
        """)
    database = str(tmp_path / "runs.db")
    process = start_run(playbook, database)
    try:
        _wait_for(lambda: _recorded_results(database) >= 1)
        listed = json.loads(runs_command(database, "list", "--out", "json").stdout)
        assert [run["status"] for run in listed] == ["running"]  # its controller is alive: not interrupted
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=60)
        for pid in processes_with(f"6{marker}"):  # the command the run started, if it left its session
            os.kill(pid, signal.SIGKILL)

    with sqlite3.connect(database) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    shown = runs_command(database, "list", "--out", "json")
    assert shown.returncode == 0, shown.stderr
    [run] = json.loads(shown.stdout)
    assert run["status"] == "interrupted" and run["ended_at"] is None and run["exit_code"] is None
    [result] = rows(database, "host_results")
    assert result["result"]["msg"] == "started"
    assert runs_command(database, "list", "--status", "interrupted").stdout.count("interrupted") == 1


def _open_at_once(database: Path, barrier: Any, answers: Any) -> None:
    barrier.wait()
    try:
        SqliteStore(database).close()
        answers.put("opened")
    except sqlite3.OperationalError as exc:
        answers.put(str(exc))


def test_runs_opening_one_new_database_at_the_same_moment_all_open_it(tmp_path: Path) -> None:
    # Four processes released together on a new file, many times: without the lock around the switch to WAL, a
    # few of these opens fail at once with "database is locked" (SQLite's deadlock answer skips the busy timeout).
    context = multiprocessing.get_context("fork")
    failures = []
    for round_ in range(60):
        database = tmp_path / f"{round_}" / "runs.db"
        barrier, answers = context.Barrier(4), context.Queue()
        openers = [context.Process(target=_open_at_once, args=(database, barrier, answers)) for _ in range(4)]
        for opener in openers:
            opener.start()
        for opener in openers:
            opener.join(60)
        failures += [answer for answer in (answers.get(timeout=10) for _ in openers) if answer != "opened"]
        with sqlite3.connect(database) as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert failures == []
