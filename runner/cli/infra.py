"""``provisioning-infra``: servers, taskservs and clusters of an infra file.

```
provisioning-infra server create|delete|list|show [--infra FILE|NAME] [NAME...] [--check] [--yes] [--out F]
provisioning-infra server ssh NAME [-- COMMAND...]
provisioning-infra taskserv create|delete NAME [--server S] / taskserv list|status [NAME] [--server S]
provisioning-infra taskserv catalog
provisioning-infra cluster create|delete|show NAME / cluster list
provisioning-infra validate FILE [--kind KIND]
provisioning-infra deps TASKSERV
provisioning-infra rollback RUN [--check] [--yes]   (runner.cli.infra_rollback)
provisioning-infra image build SPEC / image list|show|delete|prune (runner.cli.infra_images)
```

Commands that change something compile the infra's plays (``runner.compiler.infra``) into a plan and run it with
the playbook executor, as ``provisioning-playbook`` does; deletions ask first unless ``--yes``. The infra is
``--infra FILE``, else ``$PROVISIONING_INFRA``, else the one file in ``./infra/``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from runner.cli import infra_views as views
from runner.cli.common import Group, report_errors
from runner.cli.galaxy_common import galaxy_cli_context
from runner.cli.image_build import build_image
from runner.cli.infra_images import image
from runner.cli.infra_output import confirm as _confirm
from runner.cli.infra_output import emit, out_option
from runner.cli.infra_rollback import rollback_command
from runner.cli.infra_views import order_lines, validate_file
from runner.cli.options import CONTEXT_SETTINGS, config_overrides, parse_extra_vars
from runner.cli.project import Project, load_project, play_defaults
from runner.cli.run import run_plan
from runner.cli.taskserv_catalog import catalog_of, catalog_table
from runner.cli.taskserv_status import StatusCollector, status_of, status_table
from runner.cli.taskserv_updates import check_updates, pins, updates_table
from runner.cli.vault_options import VAULT_OPTIONS, vault_options
from runner.cli.verbosity import verbosity_option
from runner.compiler import CompileOptions, Compiler
from runner.compiler.infra import InfraPlays, compile_generated, taskserv_catalog
from runner.errors import ExitCode, OptionError, did_you_mean
from runner.infra.servers import AnyServer
from runner.providers import provider_for
from runner.providers.ssh_login import ServerDown, ssh_argv
from runner.taskservs.catalog import TaskservCatalog
from runner.taskservs.resolve import Wanted, resolve

INFRA_DIR = Path("infra")
PlayBuilder = Callable[[InfraPlays], list[dict[str, Any]]]


def _infra_file(value: Path | None) -> Path:
    """The infra file: ``--infra`` as a path, or a bare NAME for ``infra/NAME.yml``."""
    if value is not None:
        if value.is_file():
            return value
        named = [INFRA_DIR / f"{value}{suffix}" for suffix in (".yml", ".yaml")] if value.parent == Path() else []
        for candidate in named:
            if candidate.is_file():
                return candidate
        raise OptionError(f"the infra: {value} could not be found" + (f" (nor {named[0]})" if named else ""))
    found = sorted([*INFRA_DIR.glob("*.yml"), *INFRA_DIR.glob("*.yaml")]) if INFRA_DIR.is_dir() else []
    if len(found) != 1:
        raise OptionError("name the infra with --infra FILE (or PROVISIONING_INFRA)" + (
            f": ./infra/ holds {len(found)} files" if found else ""))
    return found[0]


infra_option = click.option("--infra", "infra", type=click.Path(dir_okay=False, path_type=Path),
                            envvar="PROVISIONING_INFRA",
                            help="The infra file, or NAME for infra/NAME.yml (default: $PROVISIONING_INFRA, "
                                 "else the one file in ./infra/).")
_RUN_OPTIONS = [
    click.option("-C", "--check", is_flag=True, help="Say what would change, change nothing."),
    click.option("-D", "--diff", is_flag=True, help="Show the differences in changed files."),
    click.option("-e", "--extra-vars", "extra_vars", multiple=True, help="Extra variables (key=value, YAML, @file)."),
    click.option("-f", "--forks", type=click.IntRange(min=1), help="Number of parallel worker processes."),
    click.option("--executor", metavar="local|ray|ray:auto|ray://HOST:PORT",
                 help="Where the workers run: forked here (local, the default) or as Ray actors on a cluster "
                      "(see docs/scale-out.md)."),
    click.option("--report", "reports", multiple=True, help="Write a report: junit:FILE or json:FILE."),
    verbosity_option,
]
yes_option = click.option("-y", "--yes", is_flag=True, help="Delete without asking.")


def run_options(function: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed([infra_option, *_RUN_OPTIONS, *VAULT_OPTIONS]):
        function = option(function)
    return function


def _project(directory: Path, forks: int | None = None, options: dict[str, Any] | None = None
             ) -> tuple[Project, Compiler]:
    """The configuration (and vault passwords) and a compiler for plays written in ``directory``; the run's
    inventory is what the plays add (the infra's servers), not the configured one."""
    overrides = config_overrides({"inventory": (), "forks": forks, "executor": (options or {}).get("executor")})
    project = load_project(overrides, directory.resolve(), need_inventory=False, options=options)
    compiler = Compiler(CompileOptions(roles_path=project.roles_path, library=project.library,
                                       collections_path=project.collections_path,
                                       filter_plugins=project.filter_plugins,
                                       module_rejectlist=project.module_rejectlist, **play_defaults(project.config)))
    return project, compiler


def _plays(infra: Path, compiler: Compiler) -> InfraPlays:
    return InfraPlays.load(infra, taskserv_catalog(compiler, infra))


def _read(infra: Path | None, vault: dict[str, Any]) -> InfraPlays:
    """The infra (``--infra``) read with its project's configuration, for commands that only look."""
    path = _infra_file(infra)
    return _plays(path, _project(path.parent, options=vault)[1])


def _run(infra_file: Path | None, build: PlayBuilder, options: dict[str, Any], *, confirm: str | None = None) -> int:
    """Build the plays, compile them into a plan and run it (after asking, for ``confirm``)."""
    infra = _infra_file(infra_file)
    project, compiler = _project(infra.parent, options.get("forks"), options)
    plays = _plays(infra, compiler)
    generated = build(plays)
    plays.check()
    plan = compile_generated(compiler, generated, infra)
    if confirm and not options["check"] and not options.pop("yes"):
        _confirm(confirm)
    run = {"limit": None, "connection": None, **options}
    return run_plan(plan, compiler, project, run, extra_vars=parse_extra_vars(options["extra_vars"]),
                    playbook_dir=infra.resolve().parent, reports=options["reports"], kind="infra")


def _servers(plays: InfraPlays, names: tuple[str, ...] | list[str]) -> list[AnyServer]:
    """The infra's servers called ``names`` (all of them when none is named), in the infra's order."""
    known = [server.hostname for server in plays.infra.servers]
    for name in names:
        if name not in known:
            raise OptionError(f"infra '{plays.infra.name}' has no server '{name}'", hint=did_you_mean(name, known))
    return [server for server in plays.infra.servers if not names or server.hostname in names]


def _cluster(plays: InfraPlays, name: str) -> Any:
    for cluster in plays.infra.clusters:
        if cluster.name == name:
            return cluster
    raise OptionError(f"infra '{plays.infra.name}' has no cluster '{name}'",
                      hint=did_you_mean(name, [cluster.name for cluster in plays.infra.clusters]))


def _carrying(plays: InfraPlays, name: str, servers: tuple[str, ...]) -> list[AnyServer]:
    """The named servers, or else every server whose taskservs include ``name``."""
    if servers:
        return _servers(plays, servers)
    found = [server for server in plays.infra.servers
             if (order := plays.order_of(server)) is not None and order.resolution.step(name) is not None]
    plays.check()
    if not found:
        raise OptionError(f"no server of infra '{plays.infra.name}' carries the taskserv '{name}': name one with "
                          "--server")
    return found


@click.group(cls=Group, context_settings=CONTEXT_SETTINGS)
def main() -> None:
    """Servers, taskservs and clusters of an infra file."""


# -- servers ---------------------------------------------------------------------------------------------------
@main.group(cls=Group)
def server() -> None:
    """Create, delete, list and show servers."""


@server.command("create")
@click.argument("names", nargs=-1)
@run_options
@report_errors
def server_create(names: tuple[str, ...], infra: Path | None, **options: Any) -> int:
    """Create the servers NAMES (every server of the infra when none is named) that do not exist yet."""
    return _run(infra, lambda plays: plays.server_plays(_servers(plays, names), listing=True), options)


@server.command("delete")
@click.argument("names", nargs=-1)
@run_options
@yes_option
@report_errors
def server_delete(names: tuple[str, ...], infra: Path | None, **options: Any) -> int:
    """Delete the servers NAMES (every server of the infra when none is named), several at once."""
    question = f"Delete the servers {', '.join(names)}?" if names else "Delete every server of the infra?"
    return _run(infra, lambda plays: plays.server_plays(_servers(plays, names), "delete"), options,
                confirm=question)


@server.command("list")
@infra_option
@out_option
@vault_options
@report_errors
def server_list(infra: Path | None, out: str, **vault: Any) -> None:
    """The infra's servers, their state and address."""
    plays = _read(infra, vault)
    emit(views.server_list(plays.infra, plays.infra.servers), out, views.server_list_table)


@server.command("show")
@click.argument("name")
@infra_option
@out_option
@vault_options
@report_errors
def server_show(name: str, infra: Path | None, out: str, **vault: Any) -> None:
    """One server: settings, state, clusters and taskservs in install order."""
    plays = _read(infra, vault)
    emit(views.server_details(plays, _servers(plays, [name])[0]), out, views.server_details_table)


@server.command("ssh")
@click.argument("name")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@infra_option
@vault_options
@report_errors
def server_ssh(name: str, command: tuple[str, ...], infra: Path | None, **vault: Any) -> None:
    """Log in to server NAME with ssh (or run COMMAND there: NAME -- COMMAND...), as its provider says: address,
    user, port, key and known hosts."""
    plays = _read(infra, vault)
    chosen = _servers(plays, [name])[0]
    provider = provider_for(plays.infra, chosen)
    state = provider.find(chosen.hostname)
    if state is None or not state.running or not state.address:
        why = "does not exist" if state is None else f"is {state.state}" if not state.running else "has no address"
        raise ServerDown(f"server {name} {why}: nothing to log in to (provisioning-infra server create "
                         f"--infra {plays.path} {name})")
    argv = ssh_argv(provider.login_vars(chosen, state), command)
    sys.stdout.flush()
    os.execvp(argv[0], argv)  # ssh takes over: its exit status is this command's


# -- taskservs -------------------------------------------------------------------------------------------------
@main.group(cls=Group)
def taskserv() -> None:
    """Install, remove and list taskservs on servers."""


server_option = click.option("-s", "--server", "servers", multiple=True,
                             help="On this server (repeatable); default: every server that carries it.")


@taskserv.command("create")
@click.argument("name")
@server_option
@run_options
@report_errors
def taskserv_create(name: str, servers: tuple[str, ...], infra: Path | None, **options: Any) -> int:
    """Install taskserv NAME, and what it requires first, on servers that run."""

    def build(plays: InfraPlays) -> list[dict[str, Any]]:
        targets = _carrying(plays, name, servers)
        return [*plays.server_plays(targets, "use"), *plays.taskserv_plays(targets, only=name)]

    return _run(infra, build, options)


@taskserv.command("delete")
@click.argument("name")
@server_option
@run_options
@yes_option
@report_errors
def taskserv_delete(name: str, servers: tuple[str, ...], infra: Path | None, **options: Any) -> int:
    """Remove taskserv NAME (its role's tasks/delete.yml), after the taskservs that require it."""

    def build(plays: InfraPlays) -> list[dict[str, Any]]:
        targets = _carrying(plays, name, servers)
        return [*plays.server_plays(targets, "use"), *plays.delete_taskserv_plays(name, targets)]

    return _run(infra, build, options, confirm=f"Delete the taskserv {name} and the taskservs that require it?")


@taskserv.command("list")
@click.argument("name", required=False)
@server_option
@infra_option
@out_option
@vault_options
@report_errors
def taskserv_list(name: str | None, servers: tuple[str, ...], infra: Path | None, out: str, **vault: Any) -> None:
    """Each server's taskservs in install order (only servers that get NAME, when given)."""
    plays = _read(infra, vault)
    emit(views.taskserv_list(plays, _servers(plays, servers), name), out, views.taskserv_list_table)


@taskserv.command("status")
@click.argument("name", required=False)
@server_option
@infra_option
@out_option
@click.option("-f", "--forks", type=click.IntRange(min=1), help="Number of parallel worker processes.")
@vault_options
@report_errors
def taskserv_status(name: str | None, servers: tuple[str, ...], infra: Path | None, out: str, forks: int | None,
                    **vault: Any) -> int:
    """Run the health check of each taskserv of the servers (only NAME's, when given) once, changing nothing,
    and print one line per server and taskserv: healthy, unhealthy, no check, or server down. Exit code 2 when a
    check fails or a server is down."""
    path = _infra_file(infra)
    project, compiler = _project(path.parent, forks, vault)
    plays = _plays(path, compiler)
    targets = _servers(plays, servers)
    if name is not None:
        targets = [s for s in targets if (o := plays.order_of(s)) is not None and o.resolution.step(name)]
        plays.check()
        if not targets:
            raise OptionError(f"no server of infra '{plays.infra.name}' carries the taskserv '{name}'")
    generated = [*plays.server_plays(targets, "look"), *plays.status_plays(targets, only=name)]
    plays.check()
    plan = compile_generated(compiler, generated, path)
    collector = StatusCollector()
    run = {"limit": None, "connection": None, "check": False, "diff": False, "verbosity": 0, "forks": forks}
    run_plan(plan, compiler, project, run, extra_vars={}, playbook_dir=path.resolve().parent, kind="infra",
             summary=collector)
    status = status_of(plays, targets, name, collector)
    emit(status, out, status_table)
    healthy = all(entry.status in ("healthy", "no check") for entry in status.checks)
    return int(ExitCode.OK if healthy else ExitCode.HOST_FAILED)


@taskserv.command("check-updates")
@click.argument("name", required=False)
@server_option
@infra_option
@out_option
@vault_options
@report_errors
def taskserv_check_updates(name: str | None, servers: tuple[str, ...], infra: Path | None, out: str,
                           **vault: Any) -> int:
    """Each installed taskserv's version (of NAME only, when given) against what its source offers: apt's
    candidate on the server for a role's Debian packages, the newest tag of its repository for a role from a
    registry. Exit code 2 when a server is down."""
    plays = _read(infra, vault)
    updates = check_updates(plays, _servers(plays, servers), name, galaxy_cli_context)
    emit(updates, out, updates_table)
    down = any(entry.status == "server down" for entry in updates.updates)
    return int(ExitCode.HOST_FAILED if down else ExitCode.OK)


@taskserv.command("update")
@click.argument("name")
@server_option
@run_options
@report_errors
def taskserv_update(name: str, servers: tuple[str, ...], infra: Path | None, **options: Any) -> int:
    """Update taskserv NAME's packages to the versions apt offers on its servers: the role runs again with them
    pinned (--check predicts it)."""
    plays = _read(infra, options)
    targets = _carrying(plays, name, servers)
    updates = check_updates(plays, targets, name, galaxy_cli_context)
    click.echo(updates_table(updates))
    pinned = pins(updates, name)
    if not any(entry.status == "update available" for entry in updates.updates):
        click.echo(f"no update available for {name}: nothing to update")
        return int(ExitCode.OK)
    extra = (*options.pop("extra_vars"), json.dumps({f"{name}_packages": pinned}))

    def build(plays: InfraPlays) -> list[dict[str, Any]]:
        chosen = [server for server in plays.infra.servers if server.hostname in {t.hostname for t in targets}]
        return [*plays.server_plays(chosen, "use"), *plays.taskserv_plays(chosen, only=name)]

    return _run(infra, build, {**options, "extra_vars": extra})


@taskserv.command("catalog")
@infra_option
@out_option
@report_errors
def taskserv_catalog_command(infra: Path | None, out: str) -> None:
    """Every taskserv that can be installed (the roles on the roles path and installed roles): version,
    requirements, what it provides and conflicts with, its health check."""
    directory = _infra_file(infra).parent if infra is not None else Path.cwd()
    _, compiler = _project(directory)
    emit(catalog_of(TaskservCatalog(compiler.options.roles_path, directory)), out, catalog_table)


# -- clusters --------------------------------------------------------------------------------------------------
@main.group(cls=Group)
def cluster() -> None:
    """Set up, remove, list and show clusters."""


@cluster.command("list")
@infra_option
@out_option
@vault_options
@report_errors
def cluster_list(infra: Path | None, out: str, **vault: Any) -> None:
    """The infra's clusters: members and taskservs."""
    plays = _read(infra, vault)
    emit(views.cluster_list(plays), out, views.cluster_list_table)


@cluster.command("show")
@click.argument("name")
@infra_option
@out_option
@vault_options
@report_errors
def cluster_show(name: str, infra: Path | None, out: str, **vault: Any) -> None:
    """One cluster: members, taskservs and vars."""
    plays = _read(infra, vault)
    emit(views.cluster_output(plays, _cluster(plays, name)), out, views.cluster_table)


@cluster.command("create")
@click.argument("name")
@run_options
@report_errors
def cluster_create(name: str, infra: Path | None, **options: Any) -> int:
    """Install cluster NAME's taskservs (and what they require) on its members together."""

    def build(plays: InfraPlays) -> list[dict[str, Any]]:
        chosen = _cluster(plays, name)
        return [*plays.server_plays(plays.infra.members(chosen), "use"),
                *plays.cluster_plays([chosen], after_servers=False)]

    return _run(infra, build, options)


@cluster.command("delete")
@click.argument("name")
@run_options
@yes_option
@report_errors
def cluster_delete(name: str, infra: Path | None, **options: Any) -> int:
    """Remove cluster NAME's taskservs from its members, after what requires them."""

    def build(plays: InfraPlays) -> list[dict[str, Any]]:
        chosen = _cluster(plays, name)
        return [*plays.server_plays(plays.infra.members(chosen), "use"), *plays.delete_cluster_plays(chosen)]

    return _run(infra, build, options, confirm=f"Delete the taskservs of cluster {name}?")


# -- golden images ---------------------------------------------------------------------------------------------
main.add_command(image)


def _read_with_config(infra: Path | None, vault: dict[str, Any]) -> tuple[InfraPlays, Any]:
    path = _infra_file(infra)
    project, compiler = _project(path.parent, options=vault)
    return _plays(path, compiler), project.config


main.add_command(rollback_command(infra_option, _read_with_config))


@image.command("build")
@click.argument("spec", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@run_options
@report_errors
def image_build(spec: Path, infra: Path | None, **options: Any) -> int:
    """Build the golden image SPEC describes: a temporary server, its taskservs, captured and recorded as a new
    version; the server is deleted in any case."""
    project, compiler = _project(spec.parent, options.get("forks"), options)
    return build_image(spec, project, compiler, options)


# -- files and taskservs ---------------------------------------------------------------------------------------
@main.command("validate")
@click.argument("file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--kind", help="A seed file's kind (nested-provisioning, golden-image-registry ...); default: infra, "
                             "or the kind its yaml-language-server modeline names.")
@vault_options
@report_errors
def validate(file: Path, kind: str | None, **vault: Any) -> None:
    """Check FILE and report every problem with its file:line:col."""
    _, compiler = _project(file.parent, options=vault)
    click.echo(validate_file(file, kind, compiler, taskserv_catalog(compiler, file)))


@main.command("deps")
@click.argument("taskserv_name", metavar="TASKSERV")
@report_errors
def deps(taskserv_name: str) -> None:
    """The install order of TASKSERV: what it requires first, then itself."""
    _, compiler = _project(Path.cwd())
    catalog = TaskservCatalog(compiler.options.roles_path, Path.cwd())
    resolution = resolve([Wanted(taskserv_name)], catalog)
    for line in order_lines(resolution):
        click.echo(line)
