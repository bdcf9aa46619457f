"""Opening the runs database: the engine, SQLite's settings, the schema brought up to date, dead runs marked.

SQLite runs in WAL mode (readers never block the writer, a killed writer leaves the last committed state) with
``synchronous=NORMAL`` (a commit survives a killed process; only a power cut may lose the last ones) and a busy
timeout, and every write transaction starts with ``BEGIN IMMEDIATE`` so two runs writing at once wait for each
other instead of failing on a lock upgrade. PostgreSQL goes through psycopg 3.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event

from runner.errors import UserError
from runner.records.encoding import to_json
from runner.records.location import DatabaseTarget
from runner.records.sqlite_store import BUSY_TIMEOUT_SECONDS, configure


class RecordsError(UserError):
    """The runs database cannot be opened, read or written."""


class NotRecorded(RecordsError):
    """No such run, host or result in the runs database."""


def unreadable(target: DatabaseTarget, exc: Exception) -> RecordsError:
    """A database error while reading, as one line naming the database (never its password)."""
    cause = getattr(exc, "orig", None) or exc
    return RecordsError(f"cannot read the runs database {target.shown}: {str(cause).strip().splitlines()[0]}")


def create_records_engine(target: DatabaseTarget, *, reading: bool = False) -> Engine:
    """An engine for ``target``; a SQLite file's directory is made (mode 0700: runs hold results) if missing.
    A ``reading`` engine's SQLite transactions are deferred: they take no write lock, so a server answering
    many reads never makes a run's writer wait."""
    if target.path is None:
        return _postgres_engine(target)
    database = target.path
    database.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    engine = create_engine(target.url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS}, json_serializer=to_json)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun below, not by the driver
        configure(dbapi_connection, database)

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")

    return engine


def _postgres_engine(target: DatabaseTarget) -> Engine:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise RecordsError(f"runs_database {target.shown}: PostgreSQL needs psycopg 3: "
                           "pip install 'provisioning[postgres]'") from None
    return create_engine(target.url, pool_pre_ping=True, json_serializer=to_json)

