"""The run records' migrations: they build exactly the schema's tables, and the code knows the newest one."""

from __future__ import annotations

from pathlib import Path

from runner.records.migrate import SCRIPT_LOCATION
from runner.records.migrations import HEAD_REVISION
from tests.support.records import migrate_and_compare


def test_head_revision_is_the_newest_migration() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    assert ScriptDirectory.from_config(config).get_heads() == [HEAD_REVISION]


def test_migrations_from_the_first_revision_match_the_schema_in_sqlite(tmp_path: Path) -> None:
    assert migrate_and_compare(str(tmp_path / "runs.db")) == []


def test_a_database_opened_for_recording_is_migrated_once_by_concurrent_openers(tmp_path: Path) -> None:
    """Several openers of a new database at once: one migrates, the others find it done."""
    from concurrent.futures import ThreadPoolExecutor

    from runner.records.database import create_records_engine
    from runner.records.location import database_target
    from runner.records.migrate import current_revision, upgrade

    target = database_target(str(tmp_path / "runs.db"), tmp_path)

    def open_one(_: int) -> str | None:
        engine = create_records_engine(target)
        try:
            upgrade(engine, tmp_path / "runs.db.lock")
            with engine.connect() as connection:
                return current_revision(connection)
        finally:
            engine.dispose()

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(open_one, range(4))) == [HEAD_REVISION] * 4


def test_the_plain_sqlite_writer_knows_every_json_column() -> None:
    from sqlalchemy import JSON

    from runner.records.encoding import JSON_COLUMNS
    from runner.records.schema import metadata

    found = {column.name for table in metadata.tables.values() for column in table.c if isinstance(column.type, JSON)}
    assert found == JSON_COLUMNS
