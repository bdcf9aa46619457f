"""What ``provisioning-infra`` prints without running anything: servers and their state, one server in full,
taskservs per server, a taskserv's resolved order, and validation of infra and seed files."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from runner.compiler import Compiler
from runner.compiler.infra import InfraPlays, compile_generated
from runner.errors import OptionError, UserError
from runner.galaxy.yamltext import to_yaml
from runner.infra import Infra, is_infra, read_infra
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


def server_table(infra: Infra, servers: list[AnyServer]) -> str:
    states = server_states(infra, servers)
    rows = [("NAME", "PROVIDER", "STATE", "ADDRESS", "TASKSERVS")]
    for server in servers:
        state = states[server.hostname]
        rows.append((server.hostname, server.provider, state if isinstance(state, str) else state.state,
                     "" if isinstance(state, str) else state.address or "",
                     ", ".join(ref.name for ref in server.taskservs)))
    return render_table(rows)


def server_details(plays: InfraPlays, server: AnyServer) -> str:
    """One server: its settings after defaults, its state, its clusters, its taskservs in install order."""
    state = server_states(plays.infra, [server])[server.hostname]
    order = plays.order_of(server)
    plays.check()
    details: dict[str, Any] = {
        "server": server.model_dump(mode="json", exclude={"taskservs"}),
        "state": state if isinstance(state, str) else state.as_result(),
        "clusters": [cluster.name for cluster in plays.infra.clusters_of(server)],
        "taskservs": [] if order is None else order_lines(order.resolution),
    }
    return to_yaml(details).rstrip()


def order_lines(resolution: Resolution) -> list[str]:
    """``name version (required by x)`` for each step of an install order."""
    lines = []
    for step in resolution.steps:
        line = step.name + (f" {step.taskserv.version}" if step.taskserv.version else "")
        lines.append(line + (f" (required by {step.required_by})" if step.required_by else ""))
    return lines


def taskserv_listing(plays: InfraPlays, servers: list[AnyServer], name: str | None) -> list[str]:
    """``server: a, b, c`` (install order) for each server, only those that get ``name`` when it is given."""
    lines = []
    for server in servers:
        order = plays.order_of(server)
        if order is None:
            continue
        names = order.resolution.names()
        if name is None or name in names:
            lines.append(f"{server.hostname}: {', '.join(names)}")
    plays.check()
    return lines


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
