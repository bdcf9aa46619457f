"""``provisioning-inventory``: show the inventory as the runner sees it (like ansible-inventory).

``--list`` prints JSON with ``_meta.hostvars`` and every group's ``hosts`` and ``children``; ``--graph [GROUP]``
draws the group tree; ``--host NAME`` prints one host's merged variables. ``--export`` keeps variables where they
are defined (group ``vars``, hosts' own) instead of flattening them onto the hosts.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
from ruamel.yaml import YAML

from runner.cli.common import Command, report_errors
from runner.cli.vault_options import install_vault_secrets, vault_options
from runner.errors import OptionError, did_you_mean
from runner.inventory import Group, Host, Inventory
from runner.inventory.merge import MAGIC_VARIABLES
from runner.inventory.model import PRIORITY_VARIABLE
from runner.secrets.encrypted import VaultEncryptedValue


@click.command(cls=Command, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.option("-i", "--inventory", "sources", multiple=True,
              help="Inventory path or comma-separated host list (repeatable); default: the configured inventory.")
@click.option("--list", "list_", is_flag=True, help="Print every group and host as JSON.")
@click.option("--graph", is_flag=True, help="Draw the group tree, from GROUP (default all).")
@click.option("--host", "host_name", metavar="NAME", help="Print one host's variables.")
@click.option("--vars", "show_vars", is_flag=True, help="With --graph: show variables too.")
@click.option("--yaml", "as_yaml", is_flag=True, help="Print YAML instead of JSON.")
@click.option("--export", is_flag=True, help="Keep variables on the group or host that defines them.")
@click.option("--playbook-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also read group_vars/ and host_vars/ beside the playbook in this directory.")
@click.option("-l", "--limit", help="Only hosts matching this pattern (or @file, one host a line).")
@click.argument("group", required=False)
@vault_options
@report_errors
def main(sources: tuple[str, ...], list_: bool, graph: bool, host_name: str | None, show_vars: bool, as_yaml: bool,
         export: bool, playbook_dir: Path | None, limit: str | None, group: str | None, **vault: Any) -> None:
    """Show the inventory: its groups, hosts and their variables."""
    if [list_, graph, host_name is not None].count(True) != 1:
        raise OptionError("give exactly one of --list, --graph or --host NAME")
    from runner.config import load_config

    install_vault_secrets(load_config({}), vault)
    if group is not None and not graph:
        raise OptionError(f"the GROUP argument ('{group}') is only used with --graph")
    from runner.cli.project import load_sources

    inventory = load_sources(_sources(sources), playbook_dir)
    for warning in inventory.warnings:
        _warn(warning)
    shown = inventory.get_hosts("all", limit=limit)
    if limit and not shown:
        _warn(f"no hosts matched the limit '{limit}'")
    if graph:
        click.echo("\n".join(graph_lines(inventory, _group(inventory, group or "all"), shown, show_vars)))
    elif host_name is not None:
        host = inventory.get_host(host_name)
        if host is None:
            raise OptionError(f"unknown host '{host_name}' for --host",
                              hint=did_you_mean(host_name, list(inventory.hosts)))
        click.echo(_dump(host_variables(inventory, host, export), as_yaml))
    else:
        tree = yaml_tree(inventory, shown, export) if as_yaml else json_tree(inventory, shown, export)
        click.echo(_dump(tree, as_yaml))


def json_tree(inventory: Inventory, shown: list[Host], export: bool = False) -> dict[str, Any]:
    """ansible-inventory's --list: ``_meta.hostvars`` plus, per group, ``hosts``, ``children`` (and ``vars``)."""
    names = {host.name for host in shown}
    result: dict[str, Any] = {}
    pending = [inventory.groups["all"]]
    seen = set(pending)
    while pending:
        group = pending.pop(0)
        entry: dict[str, Any] = {}
        if group.name != "all":
            entry["hosts"] = [host.name for host in group.hosts if host.name in names]
        entry["children"] = [child.name for child in group.children]
        if export:
            entry["vars"] = group_variables(inventory, group)
        entry = {key: value for key, value in entry.items() if value}
        if entry:
            result[group.name] = entry
        for child in group.children:
            if child not in seen:
                seen.add(child)
                pending.append(child)
    hostvars = {host.name: host_variables(inventory, host, export) for host in shown}
    result["_meta"] = {"hostvars": {name: values for name, values in hostvars.items() if values}}
    return result


def yaml_tree(inventory: Inventory, shown: list[Host], export: bool = False) -> dict[str, Any]:
    """ansible-inventory's --list --yaml: the nested ``all: {children: {...}, hosts: {...}}`` form."""
    names = {host.name for host in shown}
    described: set[str] = set()
    seen: set[str] = set()

    def node(group: Group) -> dict[str, Any]:
        children: dict[str, Any] = {}
        for child in group.children:
            if child.name in seen:
                children[child.name] = {}  # described once, where first met
                continue
            seen.add(child.name)
            body = node(child)
            if body:
                children[child.name] = body
        hosts: dict[str, Any] = {}
        for host in group.hosts if group.name != "all" else []:
            if host.name in names:
                hosts[host.name] = {} if host.name in described else host_variables(inventory, host, export)
                described.add(host.name)
        entry: dict[str, Any] = {"children": children, "hosts": hosts}
        if export:
            entry["vars"] = group_variables(inventory, group)
        return {key: value for key, value in entry.items() if value}

    return {"all": node(inventory.groups["all"])}


def graph_lines(inventory: Inventory, group: Group, shown: list[Host], show_vars: bool = False,
                depth: int = 0) -> list[str]:
    """``@all:`` / ``  |--@web:`` / ``  |  |--web01``: child groups first, then hosts, then (with --vars) vars."""
    names = {host.name for host in shown}
    lines = [_graph_line(f"@{group.name}:", depth)]
    for child in group.children:
        lines.extend(graph_lines(inventory, child, shown, show_vars, depth + 1))
    for host in group.hosts if group.name != "all" else []:
        if host.name in names:
            lines.append(_graph_line(host.name, depth + 1))
            if show_vars:
                lines.extend(_graph_vars(_public(inventory.own_vars(host)), depth + 2))
    if show_vars:
        lines.extend(_graph_vars(group_variables(inventory, group), depth + 1))
    return lines


def host_variables(inventory: Inventory, host: Host, export: bool = False) -> dict[str, Any]:
    """What --list and --host show for a host: its merged variables, or with --export only its own."""
    return _public(inventory.own_vars(host) if export else inventory.host_vars(host.name))


def group_variables(inventory: Inventory, group: Group) -> dict[str, Any]:
    variables = _public(inventory.own_vars(group))
    if group.priority != 1:
        variables[PRIORITY_VARIABLE] = group.priority
    return variables


def _public(variables: Mapping[str, Any]) -> dict[str, Any]:
    """Without the variables the inventory sets itself (inventory_hostname, group_names ...)."""
    return {key: value for key, value in variables.items() if key not in MAGIC_VARIABLES}


def _graph_line(text: str, depth: int) -> str:
    return "  |" * depth + "--" + text if depth else text


def _graph_vars(variables: Mapping[str, Any], depth: int) -> list[str]:
    return [_graph_line(f"{{{name} = {value}}}", depth) for name, value in sorted(variables.items())]


def _group(inventory: Inventory, name: str) -> Group:
    group = inventory.groups.get(name)
    if group is None:
        raise OptionError(f"--graph needs a group name, and '{name}' is not a group",
                          hint=did_you_mean(name, list(inventory.groups)))
    return group


def _sources(given: tuple[str, ...]) -> list[str]:
    """The -i values, else the configured inventory (provisioning.cfg or PROVISIONING_INVENTORY); the embedded
    default inventory of local test hosts is resolved as every command resolves it."""
    from runner.cli.project import resolve_inventory_sources
    from runner.config import load_config

    resolved = resolve_inventory_sources(load_config({"inventory": list(given) or None}))
    if not resolved:
        raise OptionError("no inventory given: use -i, set PROVISIONING_INVENTORY or 'inventory' in provisioning.cfg")
    return resolved


def _dump(data: Any, as_yaml: bool) -> str:
    plain = _plain(data)
    if not as_yaml:
        return json.dumps(plain, sort_keys=True, indent=4, ensure_ascii=False)
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    stream = io.StringIO()
    yaml.dump(plain, stream)
    return stream.getvalue().rstrip("\n")


def _plain(value: Any) -> Any:
    """Plain, sorted Python data (YAML's own types, tuples and sets made ordinary) that dumps as JSON or YAML."""
    if isinstance(value, Mapping):
        return {str(key): _plain(value[key]) for key in sorted(value, key=str)}
    if isinstance(value, VaultEncryptedValue):  # shown encrypted, as ansible-inventory shows it
        return value.sealed()
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(item) for item in value]
    if isinstance(value, bool) or value is None:
        return value if value is None else bool(value)
    for kind in (int, float, str):
        if isinstance(value, kind):
            return kind(value)
    return str(value)


def _warn(message: str) -> None:
    sys.stderr.write(f"[WARNING]: {message}\n")
