"""Writing the runs database through SQLAlchemy Core: PostgreSQL, and the reading side's housekeeping.

The same operations as ``runner.records.sqlite_store.SqliteStore``, on a SQLAlchemy connection; inserts that
meet an existing row say ON CONFLICT in the dialect's own words (SQLite and PostgreSQL both have it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from runner.records.schema import metadata, runs


def _dialect_insert(connection: Connection, table: str) -> Any:
    if connection.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert
        return postgresql_insert(metadata.tables[table])
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert
    return sqlite_insert(metadata.tables[table])


class AlchemyStore:
    """On ``connection`` when given (its caller owns the transaction), else on connections of ``engine``."""

    def __init__(self, engine: Engine | None = None, connection: Connection | None = None):
        self.engine = engine
        self.connection = connection

    def revision(self) -> str | None:
        from runner.records.migrate import current_revision

        assert self.engine is not None
        with self.engine.connect() as connection:
            return current_revision(connection)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        assert self.engine is not None
        with self.engine.begin() as connection:
            self.connection = connection
            try:
                yield
            finally:
                self.connection = None

    @property
    def _connection(self) -> Connection:
        assert self.connection is not None, "outside a transaction"
        return self.connection

    def insert(self, table: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self._connection.execute(insert(metadata.tables[table]), rows)

    def insert_returning_ids(self, table: str, rows: list[dict[str, Any]]) -> list[int]:
        chosen = metadata.tables[table]
        if not rows:
            return []
        inserted = self._connection.execute(insert(chosen).returning(chosen.c.id, sort_by_parameter_order=True),
                                            rows)
        return [row_id for (row_id,) in inserted]

    def insert_ignoring_duplicates(self, table: str, row: dict[str, Any], keys: list[str]) -> None:
        statement = _dialect_insert(self._connection, table).on_conflict_do_nothing(index_elements=keys)
        self._connection.execute(statement, row)

    def upsert(self, table: str, row: dict[str, Any], keys: list[str]) -> None:
        statement = _dialect_insert(self._connection, table)
        changes = {name: statement.excluded[name] for name in row if name not in keys}
        self._connection.execute(statement.on_conflict_do_update(index_elements=keys, set_=changes), row)

    def update_runs(self, ids: list[int], values: dict[str, Any], *, only_status: str | None = None) -> None:
        if not ids:
            return
        statement = update(runs).where(runs.c.id.in_(ids))
        if only_status is not None:
            statement = statement.where(runs.c.status == only_status)
        self._connection.execute(statement.values(**values))

    def running_runs(self, controller: str) -> list[tuple[int, int, int | None]]:
        query = select(runs.c.id, runs.c.pid, runs.c.pid_started).where(runs.c.status == "running",
                                                                         runs.c.controller == controller)
        return [tuple(row) for row in self._connection.execute(query)]

    def close(self) -> None:
        if self.engine is not None:
            self.engine.dispose()
