"""YAML inventory files that configure an inventory plugin (a top-level ``plugin:`` key), read as Ansible's
``auto`` loader reads them: the plugin the key names processes the file. ``aws_ec2`` is handled with the infra
sources (``runner.infra.inventory``); any other is a plugin written against Ansible's Python API
(``runner.inventory.ansible_plugin_source``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from runner.inventory.ansible_plugin_source import add_ansible_plugin_source
from runner.inventory.constructed import add_constructed_source
from runner.inventory.datafile import where
from runner.inventory.generator import add_generator_source
from runner.inventory.inventory import Inventory

_PLUGINS: dict[str, Callable[[Inventory, Path, Mapping[str, Any]], None]] = {
    "constructed": add_constructed_source,
    "generator": add_generator_source,
}
_PREFIXES = ("ansible.builtin.", "ansible.legacy.")


def is_plugin_config(data: Any) -> bool:
    return isinstance(data, Mapping) and "plugin" in data


def add_plugin_source(inventory: Inventory, path: Path, data: Mapping[str, Any]) -> None:
    name = str(data["plugin"])
    short = next((name[len(prefix):] for prefix in _PREFIXES if name.startswith(prefix)), name)
    plugin = _PLUGINS.get(short)
    if plugin is None:
        add_ansible_plugin_source(inventory, path, name, where(data, "plugin", path), inventory.ansible_plugins)
        return
    plugin(inventory, path, data)
