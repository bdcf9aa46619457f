"""Run records: every run written to a database as it happens, read back by ``provisioning-runs``.

``run_recorder`` gives the callback a run reports to, or None when recording is off. Importing this package
loads no SQLAlchemy: a run loads it on its writer thread only to create or migrate a database, or to write to
PostgreSQL; ``provisioning-runs`` reads through it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.records.description import RunDescription
from runner.records.location import DatabaseTarget, database_target

if TYPE_CHECKING:
    from runner.callbacks.base import Callback


def run_recorder(config: Any, description: RunDescription) -> Callback | None:
    """The recorder of a run described by ``description``, per the ``record_runs`` and ``runs_database``
    settings; a bad ``runs_database`` is an OptionError before anything runs."""
    if not config.record_runs:
        return None
    from runner.records.recorder import RunRecorder

    return RunRecorder(database_target(config.runs_database, description.project_dir), description)


def records_target(config: Any, project_dir: Path) -> DatabaseTarget:
    return database_target(config.runs_database, project_dir)


__all__ = ["DatabaseTarget", "RunDescription", "records_target", "run_recorder"]
