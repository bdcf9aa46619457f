"""Bringing a runs database to the current schema with the Alembic migrations shipped in this package.

Opening an up-to-date database only reads its revision (Alembic is not even imported). Otherwise the upgrade
runs under a lock, so two runs that find a new or old database at the same time migrate it once: a lock file
beside a SQLite database, an advisory lock on PostgreSQL.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text

from runner.records.migrations import HEAD_REVISION

SCRIPT_LOCATION = str(Path(__file__).with_name("migrations"))
_ADVISORY_LOCK_KEY = 0x70726F76  # any constant shared by every controller: "prov"


def current_revision(connection: Connection) -> str | None:
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine, lock_path: Path | None) -> None:
    """Migrate to the newest revision unless the database is there already."""
    with engine.connect() as connection:
        if current_revision(connection) == HEAD_REVISION:
            return
    with _migration_lock(engine, lock_path), engine.begin() as connection:
        if current_revision(connection) == HEAD_REVISION:
            return  # another run migrated it while this one waited
        run_alembic_upgrade(connection, "head")


def run_alembic_upgrade(connection: Connection, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


@contextmanager
def _migration_lock(engine: Engine, lock_path: Path | None) -> Iterator[None]:
    if lock_path is not None:
        with open(lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield
        return
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _ADVISORY_LOCK_KEY})
        connection.commit()
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _ADVISORY_LOCK_KEY})
            connection.commit()
