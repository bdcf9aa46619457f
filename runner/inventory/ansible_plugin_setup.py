"""Where inventory plugins written against Ansible's Python API come from, given to the inventory by the commands."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from runner.ansible_api.vars_plugins import VarsPluginSetup


@dataclass(frozen=True)
class AnsiblePluginSetup:
    """The configured ``inventory_plugins`` folders, the collections path, and whether the run flushes caches."""

    plugin_dirs: tuple[Path, ...] = ()
    collections_paths: tuple[Path, ...] = ()
    flush_cache: bool = False  # --flush-cache: a Cacheable plugin refreshes its cache instead of reading it
    vars_plugins: VarsPluginSetup | None = None  # vars plugins written against Ansible's API, when there are any
