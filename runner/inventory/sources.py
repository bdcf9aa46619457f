"""Inventory sources: a file (INI, or YAML/JSON by extension), an inventory script, a directory of them, or a
host list ``web[1:3],db,``.

A YAML file may be something other than an Ansible inventory: the caller gives readers for those (the commands
give ``runner.providers.infra_inventory.add_provisioning_source``, for infra files and ``aws_ec2`` plugin
configurations), so this package needs nothing above it. A YAML file with a top-level ``plugin:`` key that no
reader took is a ``constructed`` or ``generator`` plugin configuration (``runner.inventory.plugin_source``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition, UserError
from runner.inventory.ansible_plugin_setup import AnsiblePluginSetup
from runner.inventory.datafile import load_data_file, read_text
from runner.inventory.hostnames import UnfinishedHostRange, expand_host_pattern
from runner.inventory.ini import parse_ini
from runner.inventory.inventory import Inventory
from runner.inventory.plugin_source import add_plugin_source, is_plugin_config
from runner.inventory.script_source import add_script_source, is_inventory_script
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
                   hash_merge: bool = False, any_unparsed_is_failed: bool = True,
                   ansible_plugins: AnsiblePluginSetup | None = None) -> Inventory:
    """An inventory from ``sources`` in order (later sources add to earlier ones), with the group_vars/ and
    host_vars/ beside each source and beside ``playbook_dir``. ``yaml_readers`` are asked first, in order, about
    each YAML file; ``extra_vars`` are seen by inventory plugins that ask for them (``use_extra_vars``);
    ``invalid_group_chars`` is the transform_invalid_group_chars setting; ``hash_merge`` merges mappings given by
    several sources or levels (``hash_behaviour = merge``).

    A source (or a file of a directory source) that cannot be read is a ParseError with
    ``any_unparsed_is_failed``; without it, as Ansible's default, it is warned about in ``inventory.warnings``
    in Ansible's words (which reader failed and why, then "Unable to parse"), its name goes to
    ``inventory.unparsed``, and the others are read. ``inventory.notes`` are for -vvv. ``ansible_plugins`` says
    where inventory plugins written against Ansible's API are found."""
    inventory = Inventory(playbook_dir=Path(playbook_dir).absolute() if playbook_dir else None,
                          invalid_group_chars=invalid_group_chars, hash_merge=hash_merge)
    inventory.extra_vars = dict(extra_vars or {})
    if ansible_plugins is not None:
        inventory.ansible_plugins = ansible_plugins
        inventory.use_vars_plugins(ansible_plugins.vars_plugins)
    reader = _SourceReader(inventory, yaml_readers, any_unparsed_is_failed)
    for source in sources:
        reader.add_source(source)
    inventory.validate_vars_files()
    return inventory


def add_source(inventory: Inventory, source: str | Path, yaml_readers: Sequence[YamlSourceReader] = ()) -> None:
    """Read ``source`` into ``inventory``; a source that cannot be read is a ParseError."""
    _SourceReader(inventory, yaml_readers, any_unparsed_is_failed=True).add_source(source)


class _SourceReader:
    """Reads sources into one inventory, each file on its own: a file that fails is an error or a warning."""

    def __init__(self, inventory: Inventory, yaml_readers: Sequence[YamlSourceReader],
                 any_unparsed_is_failed: bool) -> None:
        self.inventory = inventory
        self.yaml_readers = yaml_readers
        self.any_unparsed_is_failed = any_unparsed_is_failed
        self._reader = ""  # Ansible's name for the kind of source being read, for its warning when that fails

    def add_source(self, source: str | Path) -> None:
        text = str(source)
        path = Path(text).expanduser()
        if not path.exists():
            if "," in text:
                self._reader = "advanced_host_list"
                self._guarded(text, partial(_add_host_list, self.inventory, text))
                return
            if self.any_unparsed_is_failed:
                raise ParseError(f"inventory source not found: {text}",
                                 hint="give a file, a directory or a comma-separated host list such as 'web1,web2,'")
            self.inventory.unparsed.append(text)
            self.inventory.warnings.append(f"Unable to parse {text} as an inventory source (inventory source not "
                                           "found, and not a comma-separated host list such as 'web1,web2,')")
            return
        path = Path(os.path.abspath(path))  # absolute, but a symlinked inventory keeps its own directory
        self.inventory.register_source(path)
        if path.is_dir():
            self._add_directory(path)
        else:
            self._guarded(str(path), partial(self._add_file, path))

    def _add_directory(self, directory: Path) -> None:
        """Every file of ``directory`` and its subfolders; a folder none of whose files parsed (an empty one) is
        itself a source that did not parse, as in Ansible."""
        parsed_before = len(self.inventory.parsed)
        for name in sorted(os.listdir(directory)):
            if name.startswith(".") or name in IGNORED_NAMES or name.endswith(IGNORED_SUFFIXES):
                continue
            path = directory / name
            if path.is_dir():
                self._add_directory(path)
            else:
                self._guarded(str(path), partial(self._add_file, path))
        if len(self.inventory.parsed) == parsed_before:
            self._unparsed_directory(directory)

    def _unparsed_directory(self, directory: Path) -> None:
        if self.any_unparsed_is_failed:
            raise ParseError(f"Completely failed to parse inventory source {directory}",
                             hint="it holds no inventory file")
        self.inventory.unparsed.append(str(directory))
        self.inventory.warnings.append(f"Unable to parse {directory} as an inventory source")

    def _guarded(self, source: str, read: Callable[[], None]) -> None:
        try:
            read()
        except UserError as exc:
            self._unparsed(source, exc)
        else:
            self.inventory.parsed.append(source)

    def _unparsed(self, source: str, exc: UserError) -> None:
        if self.any_unparsed_is_failed:
            raise exc
        # Ansible neither rolls back what a failing source added before its error
        self.inventory.unparsed.append(source)
        self.inventory.warnings.append(f"Failed to parse inventory with '{self._reader}' plugin: "
                                       f"{str(exc).removeprefix('ERROR: ')}")
        self.inventory.warnings.append(f"Unable to parse {source} as an inventory source")

    def _add_file(self, path: Path) -> None:
        inventory = self.inventory
        inventory.current_source = path
        try:
            with inventory.batch():
                if path.suffix in YAML_EXTENSIONS:
                    self._reader = "yaml"
                    data = load_data_file(path)
                    if any(read(inventory, path, data) for read in self.yaml_readers):
                        return
                    if is_plugin_config(data):  # constructed, generator
                        self._reader = "auto"
                        add_plugin_source(inventory, path, data)
                    else:
                        parse_yaml_inventory(inventory, path, data)
                    return
                if is_inventory_script(path):
                    self._reader = "script"
                    add_script_source(inventory, path)
                    return
                self._reader = "ini"
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
            try:
                names, port = expand_host_pattern(item, SourcePosition(f"-i {text!r}"))
            except UnfinishedHostRange as exc:
                inventory.notes.append(f"Unable to parse address from hostname, leaving unchanged: {exc.message}")
                names, port = [item], None
            for name in names:
                if name not in inventory.hosts:
                    inventory.add_host(name, ["ungrouped"], {} if port is None else {"ansible_port": port})
