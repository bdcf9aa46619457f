"""An infra file as an inventory source (``-i infra/wuji.yml``), and the ``aws_ec2`` plugin configuration.

Every server becomes a host with its ``vars`` (defaults merged), the variables to log in to it, and its groups and
``provisioning_*`` variables (``runner.infra.hosts``); a cluster's ``vars`` are its group's variables. A server
that exists gets ``ansible_host`` from its provider (one listing call per provider, or per aws region); one that
does not exist yet has no address until it is created. A provider that cannot be asked (no credentials, no
network) leaves its servers without addresses and says so in the inventory's warnings; ``lookup_addresses:
false`` in its settings skips asking.

The inventory package knows nothing of infra files or providers: ``add_provisioning_source`` is given to
``runner.inventory.load_inventory`` as a reader of YAML sources by the commands that read inventories.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.infra.hosts import host_groups, provisioning_vars
from runner.infra.loader import is_infra, read_infra
from runner.infra.models import Infra
from runner.infra.servers import AnyServer
from runner.inventory.inventory import Inventory
from runner.providers import provider_for
from runner.providers.base import Provider, ServerState

AWS_EC2_PLUGINS = ("aws_ec2", "amazon.aws.aws_ec2")


def add_provisioning_source(inventory: Inventory, path: Path, data: Any) -> bool:
    """Add ``data`` (read from ``path``) if it is an infra file or an ``aws_ec2`` plugin configuration; False
    for anything else, which is then read as a YAML inventory."""
    if isinstance(data, Mapping) and data.get("plugin") in AWS_EC2_PLUGINS:
        from runner.providers.aws_inventory import add_aws_ec2_source

        add_aws_ec2_source(inventory, path, data)
        return True
    if not is_infra(path, data):
        return False
    add_infra(inventory, read_infra(path, data), path)
    return True


def add_infra(inventory: Inventory, infra: Infra, path: Path | None = None) -> None:
    states, providers = _lookup(infra, inventory)
    with inventory.batch():
        for server in infra.servers:
            inventory.add_host(server.hostname, host_groups(infra, server), {
                **server.vars,
                **_login_vars(server, providers.get(server.hostname), states.get(server.hostname)),
                **provisioning_vars(infra, server, path),
            })
        for cluster in infra.clusters:
            group = inventory.add_group(cluster.name)
            for name, value in cluster.vars.items():
                group.set_variable(name, value)


def _login_vars(server: AnyServer, provider: Provider | None, state: ServerState | None) -> dict[str, Any]:
    if provider is not None and state is not None and state.running:
        return provider.login_vars(server, state)
    variables: dict[str, Any] = {}
    if server.user:
        variables["ansible_user"] = server.user
    if server.ssh_port != 22:
        variables["ansible_port"] = server.ssh_port
    return variables


def _lookup(infra: Infra, inventory: Inventory) -> tuple[dict[str, ServerState], dict[str, Provider]]:
    """Each existing server's state and its provider, one listing call per provider and region."""
    states: dict[str, ServerState] = {}
    providers: dict[str, Provider] = {}
    listed: dict[tuple[str, str | None], tuple[Provider, dict[str, ServerState]] | None] = {}
    for server in infra.servers:
        if not infra.providers.of(server.provider).lookup_addresses:
            continue
        key = (server.provider, getattr(server, "region", None))
        if key not in listed:
            listed[key] = None
            try:
                provider = provider_for(infra, server)
                listed[key] = (provider, {state.name: state for state in provider.servers()})
            except UserError as error:
                inventory.warnings.append(f"infra '{infra.name}': no addresses from {server.provider}: "
                                          f"{error.message}")
        found = listed[key]
        if found is not None:
            providers[server.hostname] = found[0]
            if server.hostname in found[1]:
                states[server.hostname] = found[1][server.hostname]
    return states, providers
