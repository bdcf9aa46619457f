"""``provisioning-runs``: read the run records: list, show, host, diff, prune.

The database is ``--database`` (a SQLite file or a postgresql:// URL), else the configuration's
``runs_database``, else the default one for the current directory's project (see runner.records.location).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import click

from runner.cli.common import Group, report_errors
from runner.cli.options import CONTEXT_SETTINGS
from runner.errors import ExitCode, OptionError

_DURATION = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
STATUSES = ("running", "ok", "failed", "unreachable", "error", "interrupted")

out_option = click.option("--out", type=click.Choice(["table", "json"]), default="table", show_default=True,
                          help="Print a table for people or JSON for tools.")


def parse_duration(text: str, option: str) -> timedelta:
    """``30m``, ``12h``, ``7d``, ``2w`` → a timedelta."""
    match = _DURATION.match(text)
    if not match:
        raise OptionError(f"{option} {text!r}: expected a number and a unit (s, m, h, d, w), for example 7d")
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def parse_since(text: str) -> datetime:
    """A duration back from now (``2h``, ``7d``) or a date or time (``2026-11-01``, ``2026-11-01T08:00``, UTC
    unless it says otherwise)."""
    if _DURATION.match(text):
        return datetime.now(UTC) - parse_duration(text, "--since")
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise OptionError(f"--since {text!r}: expected a duration (2h, 7d) or a date (2026-11-01, "
                          "2026-11-01T08:00)") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _emit(out: str, data: Any, table: Callable[[Any], str]) -> None:
    if out == "json":
        click.echo(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False, default=str))
    else:
        click.echo(table(data))


def _with_records(database: str | None, action: Callable[[Any], Any], *, write: bool = False) -> Any:
    """Run ``action`` on a connection to the runs database (in a transaction when ``write``)."""
    from sqlalchemy.exc import SQLAlchemyError

    from runner.config import load_config
    from runner.records import database_target
    from runner.records.database import RecordsError
    from runner.records.reading import open_records

    setting = database if database is not None else load_config().runs_database
    target = database_target(setting, Path.cwd())
    try:
        engine = open_records(target)
        try:
            with engine.begin() if write else engine.connect() as connection:
                return action(connection)
        finally:
            engine.dispose()
    except SQLAlchemyError as exc:
        cause = getattr(exc, "orig", None) or exc
        raise RecordsError(f"cannot read the runs database {target.shown}: {str(cause).strip().splitlines()[0]}")


@click.group(cls=Group, context_settings=CONTEXT_SETTINGS)
@click.option("--database", metavar="PATH|URL",
              help="The runs database: a SQLite file or a postgresql:// URL (default: the runs_database setting, "
                   "else .provisioning/runs.db in this project, else ~/.local/share/provisioning/runs.db).")
@click.pass_context
def main(context: click.Context, database: str | None) -> None:
    """Read the records of past runs of provisioning-playbook and provisioning-infra."""
    context.obj = database


@main.command(name="list")
@click.option("--playbook", help="Only runs of this playbook (its path, or the end of it: site.yml).")
@click.option("--host", help="Only runs that touched this host.")
@click.option("--status", type=click.Choice(STATUSES), help="Only runs that ended this way.")
@click.option("--since", help="Only runs started since: a duration back from now (2h, 7d) or a date (2026-11-01).")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=20, show_default=True, help="At most this many.")
@out_option
@click.pass_obj
@report_errors
def list_command(database: str | None, playbook: str | None, host: str | None, status: str | None,
                 since: str | None, limit: int, out: str) -> int:
    """The newest runs first."""
    from runner.cli.runs_views import runs_table
    from runner.records.queries import list_runs
    from runner.records.reading import NoRecords

    since_time = parse_since(since) if since else None
    try:
        found = _with_records(database, lambda connection: list_runs(
            connection, playbook=playbook, host=host, status=status, since=since_time, limit=limit))
    except NoRecords as exc:
        click.echo(f"[WARNING]: {exc.message}", err=True)
        found = []
    _emit(out, found, runs_table)
    return ExitCode.OK


@main.command()
@click.argument("run", type=int)
@out_option
@click.pass_obj
@report_errors
def show(database: str | None, run: int, out: str) -> int:
    """One run: its plays, tasks and per-host results, the hosts' counts, the slowest tasks."""
    from runner.cli.runs_views import run_report
    from runner.records.queries import show_run

    _emit(out, _with_records(database, lambda connection: show_run(connection, run)), run_report)
    return ExitCode.OK


@main.command()
@click.argument("name")
@click.option("-n", "--limit", type=click.IntRange(min=1), default=20, show_default=True,
              help="At most this many runs.")
@out_option
@click.pass_obj
@report_errors
def host(database: str | None, name: str, limit: int, out: str) -> int:
    """A host's history: its runs, when it last changed and last failed, its latest facts."""
    from runner.cli.runs_views import host_report
    from runner.records.queries import host_history

    _emit(out, _with_records(database, lambda connection: host_history(connection, name, limit=limit)),
          host_report)
    return ExitCode.OK


@main.command()
@click.argument("first", type=int)
@click.argument("second", type=int)
@out_option
@click.pass_obj
@report_errors
def diff(database: str | None, first: int, second: int, out: str) -> int:
    """What changed between two runs of one playbook: files, plan, hosts, and each task's outcome per host."""
    from runner.cli.runs_views import diff_report
    from runner.records.queries import diff_runs

    _emit(out, _with_records(database, lambda connection: diff_runs(connection, first, second)), diff_report)
    return ExitCode.OK


@main.command()
@click.option("--older-than", required=True, help="Delete runs started longer ago than this (30d, 12w, ...).")
@out_option
@click.pass_obj
@report_errors
def prune(database: str | None, older_than: str, out: str) -> int:
    """Delete old runs (never a running one) and the file contents no remaining run read."""
    from runner.records.queries import prune_runs

    age = parse_duration(older_than, "--older-than")
    pruned = _with_records(database, lambda connection: prune_runs(connection, age), write=True)
    _emit(out, pruned, lambda counts: f"pruned {counts['runs']} runs and {counts['files']} unused files")
    return ExitCode.OK
