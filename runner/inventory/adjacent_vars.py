"""``group_vars/`` and ``host_vars/`` beside the inventory sources and beside the playbook.

For an entity called NAME, the first of ``NAME`` (a file, or a directory whose files merge in sorted order),
``NAME.yml``, ``NAME.yaml``, ``NAME.json`` is used, as Ansible's vars loader does. Files and directory listings
are read once and cached; the data files are read when first needed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from runner.ansible_api.vars_plugins import VarsPluginSetup, plugin_vars
from runner.errors import ParseError, SourcePosition
from runner.inventory.connection_vars import check_connection_variables
from runner.inventory.datafile import load_data_file, where

VARS_EXTENSIONS = (".yml", ".yaml", ".json")
GROUP_VARS = "group_vars"
HOST_VARS = "host_vars"


class AdjacentVars:
    """Variables from files found next to the inventory sources (``inventory_dirs``) and the playbook."""

    def __init__(self) -> None:
        self.inventory_dirs: list[Path] = []
        self.playbook_dir: Path | None = None
        self._listings: dict[Path, frozenset[str]] = {}
        self._found: dict[tuple[Path, str], list[Path]] = {}
        self._loaded: dict[Path, dict[str, Any]] = {}
        # Vars plugins written against Ansible's API, asked after the files of each path (None: there are none)
        self.vars_plugins: VarsPluginSetup | None = None
        self.warnings: list[str] = []
        self._plugin_vars: dict[tuple[Path, str, tuple[str, ...]], dict[str, Any]] = {}
        self._setups: dict[Path | None, VarsPluginSetup | None] = {}

    def inventory_layer(self, kind: str, names: Sequence[str]) -> dict[str, Any]:
        """Variables for ``names`` (in merge order) from every inventory directory, in source order."""
        return self._layer(self.inventory_dirs, kind, names)

    def playbook_layer(self, kind: str, names: Sequence[str]) -> dict[str, Any]:
        return self._layer([self.playbook_dir] if self.playbook_dir else [], kind, names)

    def files_for(self, base: Path, kind: str, name: str) -> list[Path]:
        """The vars files for one entity under ``base/kind``, in the order they merge."""
        folder = base / kind
        key = (folder, name)
        if key not in self._found:
            self._found[key] = self._find(folder, name)
        return self._found[key]

    def load(self, path: Path) -> dict[str, Any]:
        if path not in self._loaded:
            self._loaded[path] = _read_vars_file(path)
        return self._loaded[path]

    def preload(self, kind: str, names: Iterable[str]) -> None:
        """Read every file that applies to ``names`` now, so a broken one is reported before anything runs."""
        bases = [*self.inventory_dirs, *([self.playbook_dir] if self.playbook_dir else [])]
        for name in names:
            for base in bases:
                for path in self.files_for(base, kind, name):
                    self.load(path)

    def _layer(self, bases: Sequence[Path], kind: str, names: Sequence[str]) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        for base in bases:
            for name in names:
                for path in self.files_for(base, kind, name):
                    merged.update(self.load(path))
            setup = self._plugin_setup()
            if setup is not None and names:
                merged.update(self._from_plugins(setup, base, kind, names))
        return merged

    def _plugin_setup(self) -> VarsPluginSetup | None:
        """The vars plugins' setup with the playbook's ``vars_plugins/`` folder; None when there is no plugin."""
        if self.vars_plugins is None:
            return None
        if self.playbook_dir not in self._setups:
            adjacent = (self.playbook_dir / "vars_plugins",) if self.playbook_dir else ()
            setup = replace(self.vars_plugins, plugin_dirs=(*self.vars_plugins.plugin_dirs, *adjacent))
            self._setups[self.playbook_dir] = setup if setup.has_plugins() else None
        return self._setups[self.playbook_dir]

    def _from_plugins(self, setup: VarsPluginSetup, base: Path, kind: str, names: Sequence[str]) -> dict[str, Any]:
        """What the vars plugins give at ``base`` for one level's entities, asked once per path and entities."""
        key = (base, kind, tuple(names))
        if key not in self._plugin_vars:
            self._plugin_vars[key] = plugin_vars(setup, base, "host" if kind == HOST_VARS else "group", names,
                                                 self.warnings.append)
        return self._plugin_vars[key]

    def _find(self, folder: Path, name: str) -> list[Path]:
        if name.startswith(os.sep) or os.sep in name:
            return []  # a host named like a path (a chroot) has no vars file
        entries = self._listing(folder)
        for candidate in (name, *(name + extension for extension in VARS_EXTENSIONS)):
            if candidate in entries:
                path = folder / candidate
                return _files_in(path) if path.is_dir() else [path]
        return []

    def _listing(self, folder: Path) -> frozenset[str]:
        if folder not in self._listings:
            try:
                self._listings[folder] = frozenset(os.listdir(folder))
            except OSError:
                self._listings[folder] = frozenset()
        return self._listings[folder]


def _files_in(folder: Path) -> list[Path]:
    """A NAME/ directory's files, sorted, recursing into subdirectories; hidden files and backups~ skipped."""
    found: list[Path] = []
    for entry in sorted(os.listdir(folder)):
        if entry.startswith(".") or entry.endswith("~"):
            continue
        path = folder / entry
        extension = os.path.splitext(entry)[1]
        if path.is_dir() and not extension:
            found.extend(_files_in(path))
        elif path.is_file() and (not extension or extension in VARS_EXTENSIONS):
            found.append(path)
    return found


def _read_vars_file(path: Path) -> dict[str, Any]:
    data = load_data_file(path)
    if data is None:
        return {}  # an empty file defines nothing
    if not isinstance(data, dict):
        raise ParseError(f"a vars file must be a mapping of variable names to values, got {type(data).__name__}",
                         SourcePosition(str(path), 1, 1))
    check_connection_variables(data, lambda name: where(data, name, path))
    return data
