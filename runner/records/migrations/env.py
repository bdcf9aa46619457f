"""Alembic's entry point for the run records: migrates the connection ``runner.records.migrate`` hands it."""

from __future__ import annotations

from alembic import context

from runner.records.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")  # SQLite alters tables by copying them
with context.begin_transaction():
    context.run_migrations()
