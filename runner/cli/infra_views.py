"""What ``provisioning-infra`` prints without running anything: servers and their state, one server in full,
taskservs per server, a taskserv's resolved order, and validation of infra and seed files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from runner.compiler import Compiler
from runner.compiler.infra import InfraPlays, compile_generated
from runner.errors import OptionError, UserError
from runner.infra import Cluster, Infra, is_infra, read_infra
from runner.infra.outputs import (
    ClusterList,
    ClusterOutput,
    HostTaskservs,
    ServerDetails,
    ServerList,
    ServerOutput,
    StepOutput,
    TaskservList,
)
from runner.infra.servers import AnyServer
from runner.loader.yaml import load_yaml_file
from runner.platform_specs import SEED_KINDS, validate_seed_file
from runner.providers import ServerState, provider_for
from runner.taskservs.catalog import TaskservCatalog
from runner.taskservs.resolve import Resolution
from runner.util.table import render_table

# A seed file may name its schema in a modeline: "# yaml-language-server: $schema=../schemas/seeds/<kind>.schema.json"
_SEED_MODELINE = re.compile(r"\$schema=\S*?seeds/([a-z0-9-]+)\.schema\.json")


def server_states(infra: Infra, servers: list[AnyServer]) -> dict[str, ServerState | str]:
    """Each server's state as its provider reports it, or why it could not be asked (one listing call per
    provider and region)."""
    listed: dict[tuple[str, str | None], dict[str, ServerState] | str] = {}
    states: dict[str, ServerState | str] = {}
    for server in servers:
        key = (server.provider, getattr(server, "region", None))
        if key not in listed:
            try:
                listed[key] = {state.name: state for state in provider_for(infra, server).servers()}
            except UserError as exc:
                listed[key] = f"unknown ({exc.message})"
        found = listed[key]
        states[server.hostname] = found if isinstance(found, str) else found.get(server.hostname, "absent")
    return states


def server_output(infra: Infra, server: AnyServer, state: ServerState | str) -> dict[str, Any]:
    """The fields of ``ServerOutput`` for one server."""
    return {"name": server.hostname, "provider": server.provider,
            "state": state if isinstance(state, str) else state.state,
            "address": None if isinstance(state, str) else state.address, "labels": list(server.labels),
            "clusters": [cluster.name for cluster in infra.clusters_of(server)],
            "taskservs": [ref.name for ref in server.taskservs]}


def server_list(infra: Infra, servers: list[AnyServer]) -> ServerList:
    states = server_states(infra, servers)
    return ServerList(infra=infra.name or "", servers=[
        ServerOutput(**server_output(infra, server, states[server.hostname])) for server in servers])


def server_list_table(listing: ServerList) -> str:
    return render_table([("NAME", "PROVIDER", "STATE", "ADDRESS", "TASKSERVS")] + [
        (s.name, s.provider, s.state, s.address or "", ", ".join(s.taskservs)) for s in listing.servers])


def server_details(plays: InfraPlays, server: AnyServer) -> ServerDetails:
    """One server: its settings after defaults, its state, its clusters, its taskservs in install order."""
    state = server_states(plays.infra, [server])[server.hostname]
    order = plays.order_of(server)
    plays.check()
    steps = [] if order is None else order.resolution.steps
    return ServerDetails(
        **server_output(plays.infra, server, state),
        settings=server.model_dump(mode="json", exclude={"taskservs"}),
        details={} if isinstance(state, str) else state.as_result(),
        install_order=[StepOutput(name=step.name, version=step.taskserv.version, required_by=step.required_by)
                       for step in steps])


def server_details_table(details: ServerDetails) -> str:
    order = [f"{step.name} {step.version or ''}".rstrip() + (f" (required by {step.required_by})"
                                                             if step.required_by else "")
             for step in details.install_order]
    return render_table([("NAME", details.name), ("PROVIDER", details.provider), ("STATE", details.state),
                    ("ADDRESS", details.address or ""), ("LABELS", ", ".join(details.labels)),
                    ("CLUSTERS", ", ".join(details.clusters)), ("INSTALL ORDER", ", ".join(order))])


def cluster_output(plays: InfraPlays, cluster: Cluster) -> ClusterOutput:
    return ClusterOutput(name=cluster.name, members=[server.hostname for server in plays.infra.members(cluster)],
                         taskservs=[ref.name for ref in cluster.taskservs], vars=dict(cluster.vars))


def cluster_list(plays: InfraPlays) -> ClusterList:
    return ClusterList(infra=plays.infra.name or "",
                       clusters=[cluster_output(plays, cluster) for cluster in plays.infra.clusters])


def cluster_list_table(listing: ClusterList) -> str:
    return render_table([("NAME", "MEMBERS", "TASKSERVS")] + [
        (c.name, ", ".join(c.members), ", ".join(c.taskservs)) for c in listing.clusters])


def cluster_table(cluster: ClusterOutput) -> str:
    return render_table([("NAME", cluster.name), ("MEMBERS", ", ".join(cluster.members)),
                    ("TASKSERVS", ", ".join(cluster.taskservs)),
                    ("VARS", ", ".join(f"{key}={value}" for key, value in cluster.vars.items()))])


def order_lines(resolution: Resolution) -> list[str]:
    """``name version (required by x)`` for each step of an install order."""
    lines = []
    for step in resolution.steps:
        line = step.name + (f" {step.taskserv.version}" if step.taskserv.version else "")
        lines.append(line + (f" (required by {step.required_by})" if step.required_by else ""))
    return lines


def taskserv_list(plays: InfraPlays, servers: list[AnyServer], name: str | None) -> TaskservList:
    """Each server's taskservs in install order, only the servers that get ``name`` when it is given."""
    found = []
    for server in servers:
        order = plays.order_of(server)
        if order is None:
            continue
        names = order.resolution.names()
        if name is None or name in names:
            found.append(HostTaskservs(server=server.hostname, taskservs=names))
    plays.check()
    return TaskservList(infra=plays.infra.name or "", servers=found)


def taskserv_list_table(listing: TaskservList) -> str:
    return "\n".join(f"{entry.server}: {', '.join(entry.taskservs)}" for entry in listing.servers)


def validate_file(path: Path, kind: str | None, compiler: Compiler, catalog: TaskservCatalog) -> str:
    """Validate an infra (its schema, then everything its plays need: taskservs, their order, roles, modules)
    or a seed file; every problem raised together. Returns a one-line summary."""
    data = load_yaml_file(path)
    if kind is None and is_infra(path, data):
        infra = read_infra(path, data)
        plays = InfraPlays(infra, path, catalog)
        generated = plays.site()
        plays.check()
        compile_generated(compiler, generated, path)
        return f"{path}: infra '{infra.name}' is valid ({len(infra.servers)} servers, {len(infra.clusters)} clusters)"
    kind = kind or _modeline_kind(path)
    if kind is None:
        raise OptionError(f"{path} is no infra file (no 'servers:' list): name its seed kind with --kind",
                          hint=f"one of: {', '.join(sorted(SEED_KINDS))}")
    validate_seed_file(path, kind, taskservs=catalog.names())
    return f"{path}: {kind} is valid"


def _modeline_kind(path: Path) -> str | None:
    with open(path, encoding="utf-8") as handle:
        first = handle.readline()
    match = _SEED_MODELINE.search(first)
    return match.group(1) if match else None
