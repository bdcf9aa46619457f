"""Opening the runs database to read it (``provisioning-runs``): never creates a SQLite file that is not there.

Opening brings an old database to the current schema and marks the runs whose controller died as interrupted,
as a run's start does.
"""

from __future__ import annotations

from sqlalchemy import Engine

from runner.records.alchemy_store import AlchemyStore
from runner.records.database import RecordsError, create_records_engine
from runner.records.liveness import mark_interrupted
from runner.records.location import DatabaseTarget
from runner.records.migrate import upgrade
from runner.records.sqlite_store import lock_path_of


class NoRecords(RecordsError):
    """The SQLite file does not exist yet: no run was recorded there."""


def open_records(target: DatabaseTarget) -> Engine:
    if target.path is not None and not target.path.is_file():
        raise NoRecords(f"no runs recorded yet: {target.shown} does not exist")
    engine = create_records_engine(target)
    try:
        upgrade(engine, lock_path_of(target.path) if target.path is not None else None)
        with engine.begin() as connection:
            mark_interrupted(AlchemyStore(connection=connection))
    except Exception:
        engine.dispose()
        raise
    return engine
