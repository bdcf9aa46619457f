"""``provisioning-runs``: read the run records: list, show, host, diff, prune.

The database is ``--database`` (a SQLite file or a postgresql:// URL), else the configuration's
``runs_database``, else the default one for the current directory's project (see runner.records.location).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from runner.cli.common import Group, report_errors
from runner.cli.options import CONTEXT_SETTINGS
from runner.errors import ExitCode
from runner.records.periods import RUN_STATUSES, parse_duration, parse_since

out_option = click.option("--out", type=click.Choice(["table", "json"]), default="table", show_default=True,
                          help="Print a table for people or JSON for tools.")


def _emit(out: str, data: Any, table: Callable[[Any], str]) -> None:
    if out == "json":
        click.echo(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False, default=str))
    else:
        click.echo(table(data))


def _target(database: str | None) -> Any:
    """The runs database named by ``--database``, else by the configuration, else the default one."""
    from runner.config import load_config
    from runner.records import database_target

    return database_target(database if database is not None else load_config().runs_database, Path.cwd())


def _with_records(database: str | None, action: Callable[[Any], Any], *, write: bool = False) -> Any:
    """Run ``action`` on a connection to the runs database (in a transaction when ``write``)."""
    from sqlalchemy.exc import SQLAlchemyError

    from runner.records.database import unreadable
    from runner.records.reading import open_records

    target = _target(database)
    try:
        engine = open_records(target)
        try:
            with engine.begin() if write else engine.connect() as connection:
                return action(connection)
        finally:
            engine.dispose()
    except SQLAlchemyError as exc:
        raise unreadable(target, exc) from None


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
@click.option("--status", type=click.Choice(RUN_STATUSES), help="Only runs that ended this way.")
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


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; any but a loopback one needs --auth.")
@click.option("--port", type=click.IntRange(0, 65535), default=8080, show_default=True,
              help="The port to listen on (0: any free port, printed).")
@click.option("--auth", type=click.Choice(["none", "token", "basic"]), default="none", show_default=True,
              help="token: a bearer token (or Basic auth with it as the password); basic: users of --password-file.")
@click.option("--token-file", type=click.Path(dir_okay=False, path_type=Path),
              help="The token of --auth token (default: the PROVISIONING_RUNS_TOKEN variable).")
@click.option("--password-file", type=click.Path(dir_okay=False, path_type=Path),
              help="Users of --auth basic: user:bcrypt-hash lines, as htpasswd -B writes them.")
@click.pass_obj
@report_errors
def serve(database: str | None, host: str, port: int, auth: str, token_file: Path | None,
          password_file: Path | None) -> int:
    """Serve the records read-only: a JSON API (/api/openapi.json describes it) and web pages."""
    from runner.records.web.access import make_access
    from runner.records.web.server import start_server

    access = make_access(auth, host, token_file=token_file, password_file=password_file)
    reader = _open_reader(database)
    try:
        server = start_server(reader, access, host, port)
        shown_host = f"[{host}]" if ":" in host else host
        click.echo(f"serving the run records of {reader.target.shown} at "
                   f"http://{shown_host}:{server.server_address[1]}/ (Ctrl-C stops)", err=True)
        try:
            server.serve_forever()
        finally:
            server.server_close()
    finally:
        reader.close()
    return ExitCode.OK


def _open_reader(database: str | None) -> Any:
    """The web server's reader of the runs database."""
    from sqlalchemy.exc import SQLAlchemyError

    from runner.records.database import unreadable
    from runner.records.web.reader import RecordsReader

    target = _target(database)
    try:
        return RecordsReader(target)
    except SQLAlchemyError as exc:
        raise unreadable(target, exc) from None
