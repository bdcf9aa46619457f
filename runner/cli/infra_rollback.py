"""``provisioning-infra rollback RUN [--check] [--yes]``: delete the servers a failed run created, newest first.

The run records say which servers the run's ``server`` tasks created (a server that existed before is not
touched, nor one a task only started) and in which order; the infra file gives the providers' settings. The
servers are deleted one at a time in the reverse order, so a server created after another (a member after what
it needs) goes first; the first one that cannot be deleted stops the rollback, leaving the ones created before
it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from runner.cli.common import report_errors
from runner.cli.infra_output import confirm
from runner.cli.vault_options import vault_options
from runner.errors import ExitCode, OptionError, UserError


def _created(config: Any, project_dir: Path, run_id: int) -> list[Any]:
    """The servers run ``run_id`` created, from the records ``provisioning-infra`` writes for the infra's
    directory (the configured ``runs_database``, else that project's or the user's default)."""
    from runner.records import records_target
    from runner.records.database import RecordsError
    from runner.records.progress import servers_created
    from runner.records.reading import open_records

    try:
        engine = open_records(records_target(config, project_dir))
        try:
            with engine.connect() as connection:
                return servers_created(connection, run_id)[1]
        finally:
            engine.dispose()
    except RecordsError as exc:
        raise OptionError(f"cannot roll back: {exc.message}") from None


def rollback_command(infra_option: Any, read_infra: Any) -> click.Command:
    """The command, given ``provisioning-infra``'s ``--infra`` option and its reader: (``--infra``, vault
    options) -> (the infra's plays, its project's configuration)."""

    @click.command("rollback")
    @click.argument("run_id", metavar="RUN", type=int)
    @infra_option
    @click.option("-C", "--check", is_flag=True, help="Say which servers would be deleted, delete nothing.")
    @click.option("-y", "--yes", is_flag=True, help="Delete without asking.")
    @vault_options
    @report_errors
    def rollback(run_id: int, infra: Path | None, check: bool, yes: bool, **vault: Any) -> int:
        """Delete the servers run RUN created (a run that failed), the last created first."""
        from runner.providers import ensure_absent, make_provider

        plays, config = read_infra(infra, vault)
        created = _created(config, plays.path.resolve().parent, run_id)
        if not created:
            click.echo(f"run {run_id} created no server: nothing to roll back")
            return ExitCode.OK
        names = ", ".join(server.name for server in reversed(created))
        if not check and not yes:
            confirm(f"Delete the servers run {run_id} created ({names})?")
        for server in reversed(created):
            try:
                provider = make_provider(server.provider, plays.infra.providers.of(server.provider),
                                         env_name=plays.infra.name)
                outcome = ensure_absent(provider, server.name, check=check)
            except UserError as error:
                click.echo(f"failed: {server.provider} server '{server.name}': "
                           f"{error.render(with_excerpt=False).removeprefix('ERROR: ')}", err=True)
                left = [item.name for item in created[:created.index(server)]]
                if left:
                    click.echo(f"stopped; not deleted: {', '.join(reversed(left))}", err=True)
                return ExitCode.HOST_FAILED
            click.echo(outcome.msg)
        return ExitCode.OK

    return rollback
