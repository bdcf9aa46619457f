"""Writing a SQLite runs database with the standard library's sqlite3: what a recorded run uses by default.

SQLAlchemy takes a quarter of a second of CPU to import, more than recording a whole run costs otherwise; a run
recording into SQLite therefore writes its rows with plain SQL made from the rows' own keys, stored exactly as
SQLAlchemy stores them (JSON text, times as ``YYYY-MM-DD HH:MM:SS.ffffff``). SQLAlchemy and Alembic load only to
create or migrate the database, and for PostgreSQL (``runner.records.alchemy_store``).
"""

from __future__ import annotations

import fcntl
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from runner.records.encoding import JSON_COLUMNS, sqlite_time, to_json

BUSY_TIMEOUT_SECONDS = 60


def lock_path_of(database: Path) -> Path:
    """The lock file beside a SQLite runs database: held to switch it to WAL and to migrate it."""
    return database.with_name(database.name + ".lock")


def configure(connection: sqlite3.Connection, database: Path) -> None:
    """WAL mode, ``synchronous=NORMAL`` and foreign keys on a connection to ``database``.

    Switching a new database to WAL needs an exclusive lock, and two runs that switch the same new file at once
    can deadlock on it: SQLite then answers "database is locked" at once, without waiting out the busy timeout.
    The switch is therefore made under the lock file, and only when the database is not in WAL mode already
    (reading the mode takes no lock that could deadlock)."""
    if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        with open(lock_path_of(database), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")


def _value(column: str, value: Any) -> Any:
    if column in JSON_COLUMNS:
        return None if value is None else to_json(value)
    if isinstance(value, datetime):
        return sqlite_time(value)
    if isinstance(value, bool):
        return int(value)
    return value


def _values(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(_value(column, value) for column, value in row.items())


def _insert_sql(table: str, row: dict[str, Any], suffix: str = "") -> str:
    columns = ", ".join(f'"{column}"' for column in row)
    return f'INSERT INTO "{table}" ({columns}) VALUES ({", ".join("?" * len(row))}){suffix}'


class SqliteStore:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Autocommit mode: transactions are begun IMMEDIATE below, so concurrent writers wait for each other.
        self.connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None,
                                          check_same_thread=False)
        configure(self.connection, path)

    def revision(self) -> str | None:
        try:
            row = self.connection.execute("SELECT version_num FROM alembic_version").fetchone()
        except sqlite3.OperationalError:
            return None  # a new database: no tables yet
        return row[0] if row else None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise
        self.connection.execute("COMMIT")

    def insert(self, table: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.connection.executemany(_insert_sql(table, rows[0]), [_values(row) for row in rows])

    def insert_returning_ids(self, table: str, rows: list[dict[str, Any]]) -> list[int]:
        ids = []
        for row in rows:
            cursor = self.connection.execute(_insert_sql(table, row), _values(row))
            ids.append(int(cursor.lastrowid))  # type: ignore[arg-type]
        return ids

    def insert_ignoring_duplicates(self, table: str, row: dict[str, Any], keys: list[str]) -> None:
        target = ", ".join(f'"{key}"' for key in keys)
        self.connection.execute(_insert_sql(table, row, f" ON CONFLICT ({target}) DO NOTHING"), _values(row))

    def upsert(self, table: str, row: dict[str, Any], keys: list[str]) -> None:
        target = ", ".join(f'"{key}"' for key in keys)
        changes = ", ".join(f'"{column}" = excluded."{column}"' for column in row if column not in keys)
        self.connection.execute(_insert_sql(table, row, f" ON CONFLICT ({target}) DO UPDATE SET {changes}"),
                                _values(row))

    def update_runs(self, ids: list[int], values: dict[str, Any], *, only_status: str | None = None) -> None:
        """Set ``values`` on the runs ``ids`` (those still in ``only_status``, when given)."""
        if not ids:
            return
        changes = ", ".join(f'"{column}" = ?' for column in values)
        sql = f'UPDATE runs SET {changes} WHERE id IN ({", ".join("?" * len(ids))})'
        parameters = [*_values(values), *ids]
        if only_status is not None:
            sql += " AND status = ?"
            parameters.append(only_status)
        self.connection.execute(sql, parameters)

    def running_runs(self, controller: str) -> list[tuple[int, int, int | None]]:
        return self.connection.execute("SELECT id, pid, pid_started FROM runs WHERE status = 'running' AND "
                                       "controller = ?", (controller,)).fetchall()

    def close(self) -> None:
        self.connection.close()
