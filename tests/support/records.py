"""Run records in tests: local-connection playbook runs recorded into a database of the test's own, and reading
that database back (rows as dicts, ``provisioning-runs`` as the installed command)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from tests.support.scripts import script

# Every run here uses a local connection on localhost: no test host, no root needed. The controller's Python is
# named, as for the implicit localhost: an inventory's localhost would be discovered, with Ansible's warning.
LOCAL = ("-i", "localhost,", "-c", "local", "-e", f"ansible_python_interpreter={sys.executable}")
TASKS = 30  # the tasks of a busy playbook


@dataclass
class Run:
    exit_code: int
    output: str


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def busy_playbook(directory: Path, name: str) -> Path:
    """A playbook of ``TASKS`` quick commands: a run that writes results for a second or two."""
    tasks = "".join(f"    - name: step {n}\n      command: \"true\"\n" for n in range(TASKS))
    return write(directory, name, f"- hosts: localhost\n  gather_facts: false\n  tasks:\n{tasks}")


def record_env(directory: Path, database: str, **settings: str) -> dict[str, str]:
    """The environment of a recorded run: an empty configuration file of its own, and ``database``."""
    config = directory / "empty.cfg"
    if not config.exists():
        config.write_text("[defaults]\n")
    env = {"PROVISIONING_CONFIG": str(config), "PROVISIONING_RUNS_DATABASE": database}
    env.update({f"PROVISIONING_{name.upper()}": value for name, value in settings.items()})
    return env


def run_in_process(playbook: Path, database: str, *args: str, **settings: str) -> Run:
    """``provisioning-playbook PLAYBOOK -i localhost, -c local ARGS`` in this process (its workers fork from it)."""
    from runner.cli.playbook import main

    result = CliRunner().invoke(main, [str(playbook), *LOCAL, *args], prog_name="provisioning-playbook",
                                env=record_env(playbook.parent, database, **settings))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.output)


def start_run(playbook: Path, database: str, *args: str) -> subprocess.Popen[str]:
    """The installed ``provisioning-playbook`` started on its own (a session of its own, so a test can kill the
    whole run: controller, workers and what they started)."""
    env = {**os.environ, **record_env(playbook.parent, database)}
    return subprocess.Popen([script("provisioning-playbook"), str(playbook), *LOCAL, *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
                            cwd=playbook.parent)


def runs_command(database: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([script("provisioning-runs"), "--database", database, *args], capture_output=True,
                          text=True, timeout=120, check=False)


def rows(url: str, table: str, order: str = "id") -> list[dict[str, Any]]:
    """Every row of ``table`` (the records' own engine: SQLite pragmas, psycopg for PostgreSQL)."""
    from sqlalchemy import select

    from runner.records.database import create_records_engine
    from runner.records.location import database_target
    from runner.records.schema import metadata

    engine = create_records_engine(database_target(url, Path.cwd()))
    try:
        with engine.connect() as connection:
            chosen = metadata.tables[table]
            query = select(chosen)
            if order in chosen.c:
                query = query.order_by(chosen.c[order])
            return [dict(row._mapping) for row in connection.execute(query)]
    finally:
        engine.dispose()


def migrate_and_compare(url: str) -> list[Any]:
    """On an empty database: upgrade to the first revision, then to the newest, down to nothing and up again;
    then what Alembic's autogenerate finds between the tables and the schema (empty when they agree)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from runner.records.database import create_records_engine
    from runner.records.location import database_target
    from runner.records.migrate import current_revision, run_alembic_upgrade
    from runner.records.migrations import HEAD_REVISION
    from runner.records.schema import metadata

    engine = create_records_engine(database_target(url, Path.cwd()))
    try:
        for revision in ("0001", "head"):
            with engine.begin() as connection:
                run_alembic_upgrade(connection, revision)
        with engine.begin() as connection:
            assert current_revision(connection) == HEAD_REVISION
            _downgrade_to_nothing(connection)
            run_alembic_upgrade(connection, "head")
        with engine.connect() as connection:
            return compare_metadata(MigrationContext.configure(connection), metadata)
    finally:
        engine.dispose()


def _downgrade_to_nothing(connection: Any) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    from runner.records.migrate import SCRIPT_LOCATION

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    command.downgrade(config, "base")
    assert set(inspect(connection).get_table_names()) <= {"alembic_version"}
