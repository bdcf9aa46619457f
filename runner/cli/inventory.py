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
from runner.cli.version import version_option
from runner.errors import OptionError, UserError, did_you_mean
from runner.inventory import Group, Host, Inventory
from runner.inventory.merge import MAGIC_VARIABLES
from runner.inventory.model import PRIORITY_VARIABLE
from runner.secrets.encrypted import VaultEncryptedValue
from runner.util.files import atomic_write_text


@click.command(cls=Command, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.option("-i", "--inventory", "--inventory-file", "sources", multiple=True,
              help="Inventory path or comma-separated host list (repeatable); default: the configured inventory.")
@click.option("--list", "list_", is_flag=True, help="Print every group and host as JSON.")
@click.option("--graph", is_flag=True, help="Draw the group tree, from GROUP (default all).")
@click.option("--host", "host_name", metavar="NAME", help="Print one host's variables.")
@click.option("--list-hosts", is_flag=True,
              help="List the hosts (after --limit) as `provisioning all --list-hosts` does; ansible-inventory "
                   "accepts it and prints nothing of it.")
@click.option("--vars", "show_vars", is_flag=True, help="With --graph: show variables too.")
@click.option("-y", "--yaml", "as_yaml", is_flag=True, help="Print YAML instead of JSON.")
@click.option("--toml", "as_toml", is_flag=True, help="Print TOML instead of JSON.")
@click.option("--output", "output_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Write what would be printed to FILE instead (replaced whole, never half-written).")
@click.option("-e", "--extra-vars", "extra_vars", multiple=True,
              help="Extra variables (key=value, YAML/JSON or @file; repeatable), seen by inventory plugins that "
                   "set use_extra_vars.")
@click.option("--flush-cache", is_flag=True,
              help="Clear the inventory cache: inventory sources are read afresh every time and never cached, so "
                   "there is nothing to clear.")
@click.option("-v", "--verbose", "verbosity", count=True,
              help="More output: the configuration file and each inventory source read, on stderr.")
@click.option("--export", is_flag=True, help="Keep variables on the group or host that defines them.")
@click.option("--playbook-dir", type=click.Path(file_okay=False, path_type=Path),
              envvar=["PROVISIONING_PLAYBOOK_DIR", "ANSIBLE_PLAYBOOK_DIR"],
              help="Also read group_vars/ and host_vars/ beside the playbook in this directory, and its "
                   "inventory_plugins/ (default: PROVISIONING_PLAYBOOK_DIR, else ANSIBLE_PLAYBOOK_DIR).")
@click.option("-l", "--limit", help="Only hosts matching this pattern (or @file, one host a line).")
@click.argument("group", required=False)
@vault_options
@version_option
@report_errors
def main(sources: tuple[str, ...], list_: bool, graph: bool, host_name: str | None, list_hosts: bool, show_vars: bool,
         as_yaml: bool,
         as_toml: bool, output_file: Path | None, extra_vars: tuple[str, ...], flush_cache: bool, verbosity: int,
         export: bool, playbook_dir: Path | None, limit: str | None, group: str | None, **vault: Any) -> None:
    """Show the inventory: its groups, hosts and their variables."""
    if [list_, graph, host_name is not None, list_hosts].count(True) != 1:
        raise OptionError("give exactly one of --list, --graph, --host NAME or --list-hosts")
    if as_yaml and as_toml:
        raise OptionError("give one of --yaml and --toml")
    from runner.cli.options import parse_extra_vars
    from runner.config import load_config

    config = load_config({})
    install_vault_secrets(config, vault)
    if group is not None and not (graph or list_):
        # --list always shows the whole inventory and takes the argument without using it, as Ansible's does
        raise OptionError(f"the GROUP argument ('{group}') is only used with --graph")
    given = _sources(sources)
    if verbosity:  # on stdout before the inventory, as ansible-inventory's display prints it
        sys.stdout.write(f"Using {config.path} as config file\n" if config.path else
                         "No config file found; using defaults\n")
    from runner.cli.project import ansible_plugin_setup, load_sources

    inventory = load_sources(given, config, playbook_dir, extra_vars=parse_extra_vars(extra_vars),
                             ansible_plugins=ansible_plugin_setup(config, flush_cache))
    if verbosity >= 3:  # ansible-inventory's -vvv line (which also names the plugin that read it)
        for source in inventory.sources:
            sys.stdout.write(f"Parsed {source} inventory source\n")
    text = _render(inventory, list_hosts, graph, host_name, show_vars, "toml" if as_toml else "yaml" if as_yaml else
                   "json", export, limit, group)
    if output_file is None:
        click.echo(text)
    else:
        try:
            atomic_write_text(output_file, text + "\n")
        except OSError as exc:
            raise UserError(f"cannot write the inventory to {output_file}: {exc.strerror or exc}") from None


def _render(inventory: Inventory, list_hosts: bool, graph: bool, host_name: str | None, show_vars: bool,
            style: str, export: bool, limit: str | None, group: str | None) -> str:
    """What the command prints: the graph, one host's variables or the whole inventory, in ``style``."""
    for warning in inventory.warnings:
        _warn(warning)
    shown = inventory.get_hosts("all", limit=limit)
    if limit and not shown:
        _warn(f"no hosts matched the limit '{limit}'")
    if list_hosts:
        return "\n".join([f"  hosts ({len(shown)}):", *(f"    {host.name}" for host in shown)])
    if graph:
        return "\n".join(graph_lines(inventory, _group(inventory, group or "all"), shown, show_vars))
    if host_name is not None:
        host = inventory.get_host(host_name)
        if host is None:
            raise OptionError(f"unknown host '{host_name}' for --host",
                              hint=did_you_mean(host_name, list(inventory.hosts)))
        return _dump(host_variables(inventory, host, export), style)
    # TOML's tree is YAML's with the groups side by side: TOML has no null to mark a group described elsewhere.
    tree = json_tree(inventory, shown, export) if style == "json" else yaml_tree(inventory, shown, export)
    return _dump(flat_tree(tree) if style == "toml" else tree, style)


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
    # "profile" names the encoding of the values, as ansible-core 2.19 writes it (consumers compare the output)
    result["_meta"] = {"hostvars": {name: values for name, values in hostvars.items() if values},
                       "profile": "inventory_legacy"}
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


def flat_tree(tree: dict[str, Any]) -> dict[str, Any]:
    """ansible-inventory's --list --toml: every group at the top level, ``children`` a list of names."""
    flat: dict[str, Any] = {}

    def visit(name: str, body: dict[str, Any]) -> None:
        entry: dict[str, Any] = {key: value for key, value in body.items() if key != "children"}
        children = body.get("children") or {}
        if children and name != "all":
            entry["children"] = list(children)
        if entry or name not in flat:
            flat.setdefault(name, {}).update(entry)
        for child, child_body in children.items():
            visit(child, child_body)

    visit("all", tree["all"])
    return {name: body for name, body in flat.items() if body}


def _dump(data: Any, style: str) -> str:
    plain = _plain(data)
    if style == "json":
        return json.dumps(plain, sort_keys=True, indent=4, ensure_ascii=False)
    if style == "toml":
        import tomli_w

        try:
            return tomli_w.dumps(plain).rstrip("\n")
        except TypeError as exc:  # a null value: TOML has none
            raise UserError(f"the inventory cannot be written as TOML: {exc}") from None
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
