"""Inventory sources: a file (INI, or YAML/JSON by extension), an inventory script, a directory of them, or a
host list ``web[1:3],db,``.

A YAML file may be something other than an Ansible inventory: the caller gives readers for those (the commands
give ``runner.providers.infra_inventory.add_provisioning_source``, for infra files and ``aws_ec2`` plugin
configurations), so this package needs nothing above it. A YAML file with a top-level ``plugin:`` key that no
reader took is a ``constructed`` or ``generator`` plugin configuration (``runner.inventory.plugin_source``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition, UserError
from runner.inventory.ansible_plugin_setup import AnsiblePluginSetup
from runner.inventory.datafile import load_data_file, read_text
from runner.inventory.hostnames import expand_host_pattern
from runner.inventory.ini import parse_ini
from runner.inventory.inventory import Inventory
from runner.inventory.plugin_source import add_plugin_source, is_plugin_config
from runner.inventory.script_source import add_script_source, is_inventory_script
from runner.inventory.unparsed import UnparsedPolicy
from runner.inventory.yaml_source import parse_yaml_inventory

YAML_EXTENSIONS = (".yml", ".yaml", ".json")

# Given a YAML source's data, adds it to the inventory and says True, or says False to leave it to the YAML
# inventory parser.
YamlSourceReader = Callable[[Inventory, Path, Any], bool]

# Skipped inside a directory source, as Ansible's default INVENTORY_IGNORE_EXTS (which no longer lists .ini).
IGNORED_SUFFIXES = (".pyc", ".pyo", ".swp", ".bak", "~", ".rpm", ".md", ".txt", ".rst", ".orig", ".cfg", ".retry")
# Variables beside the sources, not sources themselves.
IGNORED_NAMES = frozenset({"group_vars", "host_vars", "vars_plugins"})


def load_inventory(sources: Sequence[str | Path], playbook_dir: Path | None = None, *,
                   yaml_readers: Sequence[YamlSourceReader] = (),
                   extra_vars: dict[str, Any] | None = None, invalid_group_chars: str = "never",
                   hash_merge: bool = False, ansible_plugins: AnsiblePluginSetup | None = None,
                   unparsed: UnparsedPolicy | None = None) -> Inventory:
    """An inventory from ``sources`` in order (later sources add to earlier ones), with the group_vars/ and
    host_vars/ beside each source and beside ``playbook_dir``. A source that cannot be read is a ParseError.
    ``yaml_readers`` are asked first, in order, about each YAML file; ``extra_vars`` are seen by inventory
    plugins that ask for them (``use_extra_vars``); ``invalid_group_chars`` is the transform_invalid_group_chars
    setting; ``hash_merge`` merges mappings given by several sources or levels (``hash_behaviour = merge``);
    ``ansible_plugins`` says where inventory plugins written against Ansible's API are found; ``unparsed``, when
    given, makes a source that cannot be read a warning or an error as Ansible's settings say (without it, an
    error)."""
    inventory = Inventory(playbook_dir=Path(playbook_dir).absolute() if playbook_dir else None,
                          invalid_group_chars=invalid_group_chars, hash_merge=hash_merge)
    inventory.extra_vars = dict(extra_vars or {})
    if ansible_plugins is not None:
        inventory.ansible_plugins = ansible_plugins
    if unparsed is None:
        for source in sources:
            add_source(inventory, source, yaml_readers)
    else:
        _add_sources_tolerantly(inventory, sources, yaml_readers, unparsed)
    inventory.validate_vars_files()
    return inventory


def add_source(inventory: Inventory, source: str | Path, yaml_readers: Sequence[YamlSourceReader] = ()) -> None:
    text = str(source)
    path = Path(text).expanduser()
    if not path.exists():
        if "," in text:
            _add_host_list(inventory, text)
            return
        raise ParseError(f"inventory source not found: {text}",
                         hint="give a file, a directory or a comma-separated host list such as 'web1,web2,'")
    path = Path(os.path.abspath(path))  # absolute, but a symlinked inventory keeps its own directory
    inventory.register_source(path)
    if path.is_dir():
        _add_directory(inventory, path, yaml_readers)
    else:
        _add_file(inventory, path, yaml_readers)


def _entries(directory: Path) -> Iterator[Path]:
    """A directory source's entries that are sources, in name order."""
    for name in sorted(os.listdir(directory)):
        if not (name.startswith(".") or name in IGNORED_NAMES or name.endswith(IGNORED_SUFFIXES)):
            yield directory / name


def _add_directory(inventory: Inventory, directory: Path, yaml_readers: Sequence[YamlSourceReader]) -> None:
    for path in _entries(directory):
        if path.is_dir():
            _add_directory(inventory, path, yaml_readers)
        else:
            _add_file(inventory, path, yaml_readers)


def _add_sources_tolerantly(inventory: Inventory, sources: Sequence[str | Path],
                            yaml_readers: Sequence[YamlSourceReader], policy: UnparsedPolicy) -> None:
    """Every source as Ansible's inventory manager reads them: one that cannot be read is the policy's to judge,
    and so is a run where none could be."""
    parsed = False
    for source in sources:
        parsed = _add_tolerantly(inventory, source, yaml_readers, policy) or parsed
    if sources and not parsed:
        policy.none_parsed(inventory)


def _add_tolerantly(inventory: Inventory, source: str | Path, yaml_readers: Sequence[YamlSourceReader],
                    policy: UnparsedPolicy) -> bool:
    path = Path(str(source)).expanduser()
    try:
        if not path.is_dir():
            add_source(inventory, source, yaml_readers)
            return True
        path = Path(os.path.abspath(path))
        inventory.register_source(path)
        return _directory_tolerantly(inventory, path, yaml_readers, policy)
    except UserError as exc:
        return policy.unparsed(inventory, str(source), exc)


def _directory_tolerantly(inventory: Inventory, directory: Path, yaml_readers: Sequence[YamlSourceReader],
                          policy: UnparsedPolicy) -> bool:
    """A directory counts as read when one of its entries was; an empty one was not, as in Ansible."""
    parsed = False
    for path in _entries(directory):
        if path.is_dir():
            parsed = _directory_tolerantly(inventory, path, yaml_readers, policy) or parsed
            continue
        try:
            _add_file(inventory, path, yaml_readers)
            parsed = True
        except UserError as exc:
            policy.unparsed(inventory, str(path), exc)
    return parsed or policy.unparsed(inventory, str(directory), None)


def _add_file(inventory: Inventory, path: Path, yaml_readers: Sequence[YamlSourceReader]) -> None:
    inventory.current_source = path
    try:
        with inventory.batch():
            if path.suffix in YAML_EXTENSIONS:
                data = load_data_file(path)
                if any(read(inventory, path, data) for read in yaml_readers):
                    return
                if is_plugin_config(data):  # constructed, generator
                    add_plugin_source(inventory, path, data)
                else:
                    parse_yaml_inventory(inventory, path, data)
                return
            if is_inventory_script(path):
                add_script_source(inventory, path)
                return
            parse_ini(inventory, path, read_text(path))
    finally:
        inventory.current_source = None


def _add_host_list(inventory: Inventory, text: str) -> None:
    """``-i 'web[1:3],db:2222,'``: ungrouped hosts, ranges expanded, as Ansible's advanced_host_list source."""
    with inventory.batch():
        for item in text.split(","):
            item = item.strip()
            if not item:
                continue
            names, port = expand_host_pattern(item, SourcePosition(f"-i {text!r}"))
            for name in names:
                if name not in inventory.hosts:
                    inventory.add_host(name, ["ungrouped"], {} if port is None else {"ansible_port": port})
