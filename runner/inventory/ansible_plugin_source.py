"""Inventory plugins written against Ansible's Python API (``InventoryModule`` subclassing ansible-core's
``BaseInventoryPlugin``): a configuration file whose ``plugin:`` names one that is not built in here.

The plugin runs as ansible-core runs it, through ansible-core's own plugin loader (its ``DOCUMENTATION`` and
documentation fragments give its options, ``Cacheable`` its cache plugin, ``Constructable`` its templating), on
an ansible-core ``InventoryData`` that holds what the earlier sources gave (a plugin may read their hosts and
variables). What the plugin added (groups, hosts, children, variables) is then copied into this inventory. The
plugin is found in the configured ``inventory_plugins`` folders, an ``inventory_plugins/`` folder beside the
playbook, and, for a ``NS.COLL.NAME``, the collections path. It needs ansible-core on the controller (the user's
install): without it such a file is an error saying what to install.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.ansible_api.collections import BUILTIN_COLLECTIONS, find_collection_plugin, split_fqcn
from runner.ansible_api.core import INSTALL_HINT, installed
from runner.ansible_api.plugin_import import use_collections_paths
from runner.ansible_api.routing import RoutingError, routed_elsewhere
from runner.errors import ParseError, SourcePosition
from runner.inventory.ansible_plugin_setup import AnsiblePluginSetup
from runner.inventory.inventory import Inventory

# Set by ansible-core's InventoryData on every host it creates; this inventory sets its own from its sources.
_SOURCE_VARIABLES = frozenset({"inventory_file", "inventory_dir"})


def add_ansible_plugin_source(inventory: Inventory, path: Path, name: str, position: SourcePosition,
                              setup: AnsiblePluginSetup) -> None:
    """Run inventory plugin ``name`` on configuration file ``path`` and add what it found to ``inventory``."""
    if not installed():
        raise ParseError(f"inventory plugin '{name}' is not built in; an inventory plugin written against Ansible's "
                         "Python API needs ansible-core on the controller", position, hint=INSTALL_HINT)
    _check_routing(name, position, setup)
    plugin = _load(name, inventory.playbook_dir, setup)
    if plugin is None:
        raise ParseError(f"inventory plugin '{name}' was not found (built in: constructed, generator, aws_ec2; "
                         "others are looked for in the inventory_plugins folders and the collections path)",
                         position)
    from ansible.errors import AnsibleError
    from ansible.inventory.data import InventoryData
    from ansible.parsing.dataloader import DataLoader

    loader = DataLoader()
    if inventory.playbook_dir is not None:
        loader.set_basedir(str(inventory.playbook_dir))
    data = InventoryData()
    before = _seed(data, inventory)
    try:
        if not plugin.verify_file(str(path)):
            raise ParseError(f"inventory plugin '{name}' does not accept {path} (its verify_file refused it)",
                             position)
        plugin.parse(data, loader, str(path), cache=not setup.flush_cache)
        update_cache = getattr(plugin, "update_cache_if_changed", None)
        if update_cache is not None:  # as ansible-core's auto plugin, after a Cacheable plugin parsed
            update_cache()
    except AnsibleError as exc:
        raise ParseError(f"inventory plugin '{name}' failed to parse {path}: {_message(exc)}", position) from None
    except ParseError:
        raise
    except Exception as exc:
        raise ParseError(f"inventory plugin '{name}' failed to parse {path}: {type(exc).__name__}: {exc}",
                         position) from None
    _copy_back(data, inventory, before)


def _check_routing(name: str, position: SourcePosition, setup: AnsiblePluginSetup) -> None:
    """A name ansible-core routes to a collection that is not installed: an error saying which to install (its
    loader would only warn that the import failed)."""
    try:
        target = routed_elsewhere("inventory", name, setup.collections_paths)
    except RoutingError as exc:
        raise ParseError(exc.message, position) from None
    split = split_fqcn(target) if target else None
    if split is None:
        return
    collection, short = split
    if collection not in BUILTIN_COLLECTIONS and find_collection_plugin(collection, "inventory", short,
                                                                         setup.collections_paths) is None:
        raise ParseError(f"inventory plugin '{name}': ansible-core routes it to {target}; the collection {collection} "
                         "is not installed in the collections path", position)


def _load(name: str, playbook_dir: Path | None, setup: AnsiblePluginSetup) -> Any:
    """The plugin instance from ansible-core's inventory loader, with our folders added to its search."""
    use_collections_paths(setup.collections_paths)
    from ansible.plugins.loader import add_all_plugin_dirs, inventory_loader

    for directory in setup.plugin_dirs:
        if directory.is_dir():
            inventory_loader.add_directory(str(directory))
    if playbook_dir is not None:
        add_all_plugin_dirs(str(playbook_dir))  # inventory_plugins/, doc_fragments/, cache_plugins/ beside it
    return inventory_loader.get(name)


def _message(exc: BaseException) -> str:
    message = getattr(exc, "message", None) or str(exc)
    cause = exc.__cause__
    return f"{message}: {cause}" if cause is not None else str(message)


# What each host and group held before the plugin ran: its variables, so only what the plugin set is copied back.
_Snapshot = dict[tuple[str, str], dict[str, Any]]


def _seed(data: Any, inventory: Inventory) -> _Snapshot:
    """Give ansible-core's inventory the groups, hosts and source variables read so far."""
    before: _Snapshot = {}
    for group in inventory.groups.values():
        data.add_group(group.name)
    for group in inventory.groups.values():
        for child in group.children:
            data.add_child(group.name, child.name)
        for key, value in group.vars.items():
            data.set_variable(group.name, key, value)
        before["group", group.name] = dict(data.groups[group.name].vars)
    for host in inventory.hosts.values():
        data.add_host(host.name)
        for group in host.groups:
            data.add_child(group.name, host.name)
        for key, value in host.vars.items():
            data.set_variable(host.name, key, value)
        before["host", host.name] = dict(data.hosts[host.name].vars)
    return before


def _copy_back(data: Any, inventory: Inventory, before: _Snapshot) -> None:
    """Add to ``inventory`` what the plugin added to ansible-core's: groups, children, hosts and variables."""
    with inventory.batch():
        for name, group in data.groups.items():
            ours = inventory.add_group(name)
            for key, value in _changed(group.vars, before.get(("group", name), {})).items():
                ours.vars[key] = value
        for name, group in data.groups.items():
            for child in group.child_groups:
                if inventory.groups.get(child.name) not in inventory.groups[name].children:
                    inventory.add_child(name, child.name)
        for name, host in data.hosts.items():
            groups = [group.name for group in host.groups if group.name not in ("all", "ungrouped")]
            changed = {key: value for key, value in _changed(host.vars, before.get(("host", name), {})).items()
                       if key not in _SOURCE_VARIABLES}
            inventory.add_host(name, groups, changed)


def _changed(now: Mapping[str, Any], before: Mapping[str, Any]) -> dict[str, Any]:
    return {str(key): plain(value) for key, value in now.items() if key not in before or before[key] != value}


def plain(value: Any) -> Any:
    """``value`` as plain Python data: ansible-core 2.19 hands out tagged subclasses of str, int, dict and list."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, Mapping):
        return {plain(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(item) for item in value]
    return value
