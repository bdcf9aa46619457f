"""The server's hold on the runs database: one engine for every request thread, and runs whose controller
died marked interrupted now and then, so a page following a killed run sees it end."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from runner.records.alchemy_store import AlchemyStore
from runner.records.database import create_records_engine, unreadable
from runner.records.liveness import mark_interrupted
from runner.records.location import DatabaseTarget
from runner.records.reading import open_records

LIVENESS_INTERVAL = 5.0  # seconds between two looks for runs whose controller is gone
T = TypeVar("T")


class RecordsReader:
    def __init__(self, target: DatabaseTarget):
        self.target = target
        # Opening migrates the database and marks dead runs (writes, as any command that opens it); the
        # requests then read through an engine of their own that takes no write lock.
        self._writer: Engine = open_records(target)
        self.engine: Engine = create_records_engine(target, reading=True)
        self._checked = time.monotonic()
        self._lock = threading.Lock()

    def read(self, action: Callable[[Connection], T]) -> T:
        """``action`` on a connection; a database error becomes a RecordsError naming the database."""
        try:
            self._mark_dead_runs()
            with self.engine.connect() as connection:
                return action(connection)
        except SQLAlchemyError as exc:
            raise unreadable(self.target, exc) from None

    def _mark_dead_runs(self) -> None:
        with self._lock:
            if time.monotonic() - self._checked < LIVENESS_INTERVAL:
                return
            self._checked = time.monotonic()
        with self._writer.begin() as connection:
            mark_interrupted(AlchemyStore(connection=connection))

    def close(self) -> None:
        self.engine.dispose()
        self._writer.dispose()

