"""Inserts that meet an existing row, in the dialect's own words (SQLite and PostgreSQL both say ON CONFLICT)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Table


def _insert(connection: Connection, table: Table) -> Any:
    if connection.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert(table)


def insert_ignoring_duplicates(connection: Connection, table: Table, row: dict[str, Any], keys: list[str]) -> None:
    connection.execute(_insert(connection, table).values(row).on_conflict_do_nothing(index_elements=keys))


def upsert(connection: Connection, table: Table, row: dict[str, Any], keys: list[str]) -> None:
    statement = _insert(connection, table).values(row)
    changes = {name: statement.excluded[name] for name in row if name not in keys}
    connection.execute(statement.on_conflict_do_update(index_elements=keys, set_=changes))
