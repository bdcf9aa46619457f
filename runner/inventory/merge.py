"""How a host's inventory variables are layered, lowest precedence first, as Ansible's defaults do:

1. the ``all`` group's vars from inventory sources, then every other group of the host's (sorted below)
2. ``group_vars/all`` beside the inventory, then beside the playbook
3. ``group_vars/<group>`` beside the inventory, then beside the playbook (groups sorted below)
4. the host's vars from inventory sources, then ``host_vars/<host>`` beside the inventory, then the playbook
5. the magic variables (inventory_hostname, group_names, inventory_file ...)

Groups are sorted by depth (parents before children), then ``ansible_group_priority``, then name. Each layer
replaces top-level keys of the ones below (``hash_behaviour = replace``), or merges mappings into them
recursively (``merge``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from runner.inventory.adjacent_vars import GROUP_VARS, HOST_VARS, AdjacentVars
from runner.inventory.model import Group, Host
from runner.util.hash_merge import merge_into

# Variables the inventory sets itself; ansible-inventory leaves them out of what it prints.
MAGIC_VARIABLES = ("inventory_hostname", "inventory_hostname_short", "group_names", "inventory_dir", "inventory_file")


def sort_groups(groups: Iterable[Group]) -> list[Group]:
    return sorted(groups, key=lambda group: (group.depth, group.priority, group.name))


def merged_group_vars(all_group: Group, groups: list[Group], adjacent: AdjacentVars,
                      merge: bool = False) -> dict[str, Any]:
    """Layers 1-3 for a host in ``groups`` (sorted, without ``all``): shared by every host in the same groups."""
    names = [group.name for group in groups]
    merged: dict[str, Any] = dict(all_group.vars)
    for layer in [*(group.vars for group in groups), adjacent.inventory_layer(GROUP_VARS, ["all"]),
                  adjacent.playbook_layer(GROUP_VARS, ["all"]), adjacent.inventory_layer(GROUP_VARS, names),
                  adjacent.playbook_layer(GROUP_VARS, names)]:
        merge_into(merged, layer, merge)
    return merged


def merged_host_vars(host: Host, adjacent: AdjacentVars, merge: bool = False) -> dict[str, Any]:
    """Layers 4 and 5: what is the host's own."""
    merged = own_host_vars(host, adjacent, merge)
    merged.update(magic_variables(host))
    return merged


def own_host_vars(host: Host, adjacent: AdjacentVars, merge: bool = False) -> dict[str, Any]:
    merged: dict[str, Any] = dict(host.vars)
    merge_into(merged, adjacent.inventory_layer(HOST_VARS, [host.name]), merge)
    merge_into(merged, adjacent.playbook_layer(HOST_VARS, [host.name]), merge)
    return merged


def own_group_vars(group: Group, adjacent: AdjacentVars, merge: bool = False) -> dict[str, Any]:
    """A group's variables from inventory sources and its group_vars files, without those of other groups."""
    merged: dict[str, Any] = dict(group.vars)
    merge_into(merged, adjacent.inventory_layer(GROUP_VARS, [group.name]), merge)
    merge_into(merged, adjacent.playbook_layer(GROUP_VARS, [group.name]), merge)
    return merged


def magic_variables(host: Host) -> dict[str, Any]:
    return {
        "inventory_hostname": host.name,
        "inventory_hostname_short": host.name.split(".")[0],
        "group_names": host.group_names(),
        "inventory_file": str(host.source) if host.source else None,
        "inventory_dir": str(host.source.parent) if host.source else None,
    }
