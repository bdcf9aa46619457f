"""``provisioning-infra taskserv check-updates`` and ``taskserv update NAME``: each installed taskserv's version
against what its source offers (``runner.cli.taskserv_sources``), one line per server, taskserv and source.

``taskserv update NAME`` installs the taskserv again with its packages pinned to the candidate versions found
(``<name>_packages``), so the role's own install step upgrades them and its handlers restart what changed;
``--check`` predicts that run. A role from a registry is updated in the project (``provisioning-galaxy
install``), not on the servers: its line says so.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from runner.cli.taskserv_sources import PackageVersions, apt_policy, newest_tag, oci_source, role_packages
from runner.compiler.infra import InfraPlays
from runner.errors import UserError
from runner.galaxy.context import GalaxyContext
from runner.infra.image_outputs import TaskservUpdates, UpdateEntry
from runner.infra.servers import AnyServer
from runner.providers import provider_for
from runner.taskservs.catalog import Taskserv
from runner.util.table import render_table

PARALLEL = 8


def check_updates(plays: InfraPlays, servers: list[AnyServer], only: str | None,
                  context: Callable[[], GalaxyContext]) -> TaskservUpdates:
    """The update lines of ``servers`` (their taskservs, or only ``only``); ``context`` gives the galaxy
    context, made only when a role came from a registry."""
    wanted = {server.hostname: _taskservs(plays, server, only) for server in servers}
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        policies = dict(zip(wanted, pool.map(lambda s: _policy(plays, s, wanted[s.hostname]), servers),
                            strict=True))
    tags: dict[str, str | UserError | None] = {}
    entries: list[UpdateEntry] = []
    for server in servers:
        policy = policies[server.hostname]
        for taskserv in wanted[server.hostname]:
            own = [*_apt_entries(server.hostname, taskserv, policy),
                   *_oci_entries(server.hostname, taskserv, tags, context)]
            entries += own or [UpdateEntry(server=server.hostname, taskserv=taskserv.name, source="none", item="",
                                           installed=taskserv.version, available=None, status="no source")]
    return TaskservUpdates(infra=plays.infra.name or "", updates=entries)


def pins(updates: TaskservUpdates, name: str) -> list[str]:
    """``package=candidate`` for every package of taskserv ``name`` with an update; an error when servers are
    offered different candidates (one run pins one version)."""
    offered: dict[str, set[str]] = {}
    for entry in updates.updates:
        if entry.taskserv == name and entry.source == "apt" and entry.available:
            offered.setdefault(entry.item, set()).add(entry.available)
    split = {package: versions for package, versions in offered.items() if len(versions) > 1}
    if split:
        raise UserError("the servers are offered different versions of " + ", ".join(
            f"{package} ({', '.join(sorted(versions))})" for package, versions in split.items())
            + ": update them one --server at a time")
    return [f"{package}={versions.pop()}" for package, versions in offered.items()]


def updates_table(updates: TaskservUpdates) -> str:
    rows = [[entry.server, entry.taskserv, entry.source, entry.item or "-", entry.installed or "-",
             entry.available or "-", entry.status] for entry in updates.updates]
    return render_table([["SERVER", "TASKSERV", "SOURCE", "ITEM", "INSTALLED", "AVAILABLE", "STATUS"], *rows])


def _taskservs(plays: InfraPlays, server: AnyServer, only: str | None) -> list[Taskserv]:
    order = plays.order_of(server)
    plays.check()
    steps = [] if order is None else order.resolution.steps
    return [step.taskserv for step in steps if only is None or step.name == only]


def _policy(plays: InfraPlays, server: AnyServer, taskservs: list[Taskserv]
            ) -> dict[str, PackageVersions] | str:
    """apt's view of the server's packages, or why it could not be asked."""
    packages = [package for taskserv in taskservs for package in role_packages(taskserv)]
    if not packages:
        return {}
    provider = provider_for(plays.infra, server)
    try:
        state = provider.find(server.hostname)
        if state is None or not state.running or not state.address:
            return "server down"
        return apt_policy(provider.login_vars(server, state), packages)
    except UserError as error:
        return f"unknown ({error.message})"


def _apt_entries(server: str, taskserv: Taskserv, policy: dict[str, PackageVersions] | str) -> list[UpdateEntry]:
    entries = []
    for package in role_packages(taskserv):
        if isinstance(policy, str):
            installed, available, status = None, None, policy
        else:
            versions = policy.get(package, PackageVersions(None, None))
            installed, available = versions.installed, versions.candidate
            status = ("not installed" if installed is None else "unknown (no candidate)" if available is None
                      else "up to date" if installed == available else "update available")
        entries.append(UpdateEntry(server=server, taskserv=taskserv.name, source="apt", item=package,
                                   installed=installed, available=available, status=status))
    return entries


def _oci_entries(server: str, taskserv: Taskserv, tags: dict[str, str | UserError | None],
                 context: Callable[[], GalaxyContext]) -> list[UpdateEntry]:
    found = oci_source(taskserv.path)
    if found is None:
        return []
    source, installed = found
    if source not in tags:  # each registry asked once per role, however many servers carry it
        try:
            tags[source] = newest_tag(context(), source)
        except UserError as error:
            tags[source] = error
    newest = tags[source]
    if isinstance(newest, UserError):
        available, status = None, f"unknown ({newest.message})"
    else:
        available = newest
        status = ("unknown (no version tags)" if newest is None else "up to date" if newest == installed
                  else "update available (provisioning-galaxy install)")
    return [UpdateEntry(server=server, taskserv=taskserv.name, source="oci", item=source, installed=installed,
                        available=available, status=status)]
