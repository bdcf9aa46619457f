"""The writer thread: opens the runs database, then writes the recorder's events in batches.

SQLite is written with the standard library (``SqliteStore``), PostgreSQL through SQLAlchemy (``AlchemyStore``);
SQLAlchemy and Alembic load for SQLite only when the database must be created or migrated.

It wakes at most every ``BATCH_SECONDS`` while a run goes on and writes everything queued meanwhile in one
transaction; the run's end is written at once. A database that cannot be opened or written costs the run one
warning, never its result: the run goes on unrecorded (the controller never waits on the database, except for
the last batch when the run ends, at most ``CLOSE_TIMEOUT_SECONDS``).
"""

from __future__ import annotations

import getpass
import hashlib
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from runner.records.description import RunDescription, expand
from runner.records.liveness import controller_name, mark_interrupted, process_start_ticks
from runner.records.location import DatabaseTarget
from runner.records.migrations import HEAD_REVISION
from runner.records.rows import censored_command, facts_of, result_row, run_status, task_row, values_rows
from runner.records.store import RowStore

BATCH_SECONDS = 0.25
CLOSE_TIMEOUT_SECONDS = 60.0
FILE_SIZE_LIMIT = 4 * 1024 * 1024  # a bigger file is recorded by hash alone, its content left out
_STOP = ("stop",)


class RecordWriter(threading.Thread):
    def __init__(self, target: DatabaseTarget, description: RunDescription,
                 events: queue.SimpleQueue[tuple[Any, ...]]):
        super().__init__(name="run-records", daemon=True)  # never keeps a finished run's process alive
        self.target = target
        self.description = description
        self.events = events
        self.closing = threading.Event()
        self.store: RowStore | None = None
        self.run_id: int | None = None
        self.failed = False
        self._plays: dict[int, int] = {}  # play seq -> row id
        self._tasks: dict[int, int] = {}  # task seq -> row id
        self._facts: dict[str, dict[str, Any]] = {}

    # -- the controller's side ------------------------------------------------------------------------------
    def close(self) -> None:
        """Write what is queued and stop (called when the run ends)."""
        self.events.put(_STOP)
        self.closing.set()
        self.join(CLOSE_TIMEOUT_SECONDS)
        if self.is_alive():
            self._warn(f"still writing after {CLOSE_TIMEOUT_SECONDS:.0f} s; the run's last events may be missing")

    # -- the thread ------------------------------------------------------------------------------------------
    def run(self) -> None:
        try:
            while True:
                batch = self._next_batch()
                stop = batch[-1] is _STOP
                if stop:
                    batch.pop()
                if batch and not self.failed:
                    self._write(batch)
                if stop:
                    return
        finally:
            if self.store is not None:
                self.store.close()

    def _next_batch(self) -> list[tuple[Any, ...]]:
        batch = [self.events.get()]
        if batch[0] is not _STOP and not self.closing.is_set():
            self.closing.wait(BATCH_SECONDS)  # one wake-up per interval, not one per event
        while batch[-1] is not _STOP:
            try:
                batch.append(self.events.get_nowait())
            except queue.Empty:
                break
        return batch

    def _write(self, batch: list[tuple[Any, ...]]) -> None:
        try:
            if self.store is None:
                self.store = open_store(self.target)
                with self.store.transaction():
                    mark_interrupted(self.store)
            with self.store.transaction():
                self._write_events(self.store, batch)
        except Exception as exc:  # a database fault must not become the run's fault
            self.failed = True
            self._warn(f"cannot write to {self.target.shown}: {type(exc).__name__}: {exc}; "
                       "the rest of this run is not recorded")

    def _write_events(self, store: RowStore, batch: list[tuple[Any, ...]]) -> None:
        """A batch's rows, parents first: the run, its plays, its tasks, the results (one statement for all), the
        values they set and the hosts that finished a play, the end."""
        by_kind: dict[str, list[tuple[Any, ...]]] = {"run": [], "play": [], "task": [], "result": [], "values": [],
                                                     "play_hosts": [], "end": []}
        for event in batch:
            by_kind[event[0]].append(event)
        for _, started in by_kind["run"]:
            self._start_run(store, started)
        play_rows = [{"run_id": self.run_id, "seq": seq, "name": play.name, "pattern": play.pattern,
                      "position": play.position, "started_at": started} for _, seq, play, started in by_kind["play"]]
        for row, row_id in zip(play_rows, store.insert_returning_ids("plays", play_rows), strict=True):
            self._plays[row["seq"]] = row_id
        task_rows = [task_row(self.run_id, self._plays.get(play_seq), seq, task, started)  # type: ignore[arg-type]
                     for _, seq, play_seq, task, started in by_kind["task"]]
        for row, row_id in zip(task_rows, store.insert_returning_ids("tasks", task_rows), strict=True):
            self._tasks[row["seq"]] = row_id
        results = []
        for _, seq, task, host, result, ended in by_kind["result"]:
            if "_include" in result:
                continue  # an include's targets are in the task files recorded, not a result
            results.append(result_row(self.run_id, self._tasks[seq], task, host, result, ended))  # type: ignore[arg-type]
            for fact_host, facts in facts_of(task, result).items():
                self._facts.setdefault(fact_host, {}).update(facts)
        store.insert("host_results", results)
        store.insert("host_values", [row for _, seq, task, host, values in by_kind["values"]
                                     for row in values_rows(self.run_id, self._tasks.get(seq), task, host, values)])  # type: ignore[arg-type]
        store.insert("play_hosts", [{"play_id": self._plays[seq], "host": host, "run_id": self.run_id}
                                    for _, seq, hosts in by_kind["play_hosts"] if seq in self._plays
                                    for host in hosts])
        for _, counts, exit_code, ended in by_kind["end"]:
            self._end_run(store, counts, exit_code, ended)

    def _start_run(self, store: RowStore, started: Any) -> None:
        description = self.description
        row = {"kind": description.kind, "status": "running", "command": censored_command(description.argv),
               "playbook": description.playbook, "user": _user(), "controller": controller_name(),
               "pid": os.getpid(), "pid_started": process_start_ticks(os.getpid()),
               "project_path": str(description.project_dir), "git_commit": git_commit(description.project_dir),
               "started_at": started, "check_mode": description.check, "diff_mode": description.diff,
               "plan_hash": description.plan_hash, "tasks_hash": description.tasks_hash}
        [self.run_id] = store.insert_returning_ids("runs", [row])
        self._record_files(store)

    def _record_files(self, store: RowStore) -> None:
        listed: list[dict[str, Any]] = []
        for kind, path in expand(self.description.files):
            try:
                content = path.read_bytes() if path.stat().st_size <= FILE_SIZE_LIMIT else b""
            except OSError:
                continue  # gone or unreadable since the run read it
            digest = hashlib.sha256(content).hexdigest()
            store.insert_ignoring_duplicates("files", {"sha256": digest, "size": len(content), "content": content},
                                             ["sha256"])
            listed.append({"run_id": self.run_id, "path": str(path), "kind": kind, "sha256": digest})
        store.insert("run_files", listed)

    def _end_run(self, store: RowStore, counts: dict[str, dict[str, int]], exit_code: int, ended: Any) -> None:
        assert self.run_id is not None
        store.update_runs([self.run_id], {"ended_at": ended, "exit_code": exit_code, "status": run_status(exit_code)})
        store.insert("run_hosts", [{"run_id": self.run_id, "host": host, **values} for host, values in counts.items()])
        for host, facts in self._facts.items():
            store.upsert("host_facts", {"host": host, "run_id": self.run_id, "updated_at": ended, "facts": facts},
                         ["host"])

    def _warn(self, message: str) -> None:
        sys.stderr.write(f"[WARNING]: run records: {message}\n")


def open_store(target: DatabaseTarget) -> RowStore:
    """The store a run writes through, its database brought to the current schema first. A SQLite database that
    is up to date is written with the standard library alone: SQLAlchemy and Alembic load only to migrate it."""
    if target.path is not None:
        from runner.records.sqlite_store import SqliteStore

        store = SqliteStore(target.path)
        if store.revision() != HEAD_REVISION:
            _migrate(target)
        return store
    from runner.records.alchemy_store import AlchemyStore
    from runner.records.database import create_records_engine

    engine = create_records_engine(target)
    _migrate(target, engine)
    return AlchemyStore(engine)


def _migrate(target: DatabaseTarget, engine: Any = None) -> None:
    from runner.records.database import create_records_engine
    from runner.records.migrate import upgrade
    from runner.records.sqlite_store import lock_path_of

    own = engine is None
    engine = engine or create_records_engine(target)
    try:
        upgrade(engine, lock_path_of(target.path) if target.path is not None else None)
    finally:
        if own:
            engine.dispose()


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return str(os.getuid())


def git_commit(directory: Path) -> str | None:
    """The commit checked out in ``directory``'s repository, or None outside one (or without git)."""
    try:
        result = subprocess.run(["git", "-C", str(directory), "rev-parse", "--verify", "-q", "HEAD"],
                                capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    commit = result.stdout.strip()
    return commit if result.returncode == 0 and commit else None
