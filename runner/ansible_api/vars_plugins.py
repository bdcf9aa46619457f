"""Vars plugins written against Ansible's Python API, run where ansible-core runs them.

ansible-core's ``host_group_vars`` (group_vars/ and host_vars/ files) is this runner's own
(``runner.inventory.adjacent_vars``); any other vars plugin is found by ansible-core's vars loader in the
configured ``vars_plugins`` folders (``ANSIBLE_VARS_PLUGINS``) and a ``vars_plugins/`` folder beside the
playbook. As in ansible-core, one that sets ``REQUIRES_ENABLED = True`` runs only when ``vars_enabled`` names it;
others run always. Each is asked, for every path whose group_vars/host_vars files are read (the inventory
sources' folders, the playbook's), for the variables of the entities of one level (the ``all`` group, the host's
other groups, the host): ``get_vars(loader, path, entities)``, or the old ``get_host_vars(name)`` /
``get_group_vars(name)`` with ansible-core's deprecation warning. Its variables come after the files' of the same
path and level. A plugin's ``stage`` option is not followed: plugins run whenever variables are read, which is
ansible-core's default (``run_vars_plugins = demand``) for a run. Needs ansible-core on the controller.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from runner.ansible_api.core import INSTALL_HINT, installed
from runner.ansible_api.routing import warn_deprecated
from runner.errors import UserError

NATIVE = ("host_group_vars", "ansible.builtin.host_group_vars", "ansible.legacy.host_group_vars")


@dataclass(frozen=True)
class VarsPluginSetup:
    """Where vars plugins are found, and ``vars_enabled``: those that must be named to run."""

    plugin_dirs: tuple[Path, ...] = ()
    enabled: tuple[str, ...] = ("host_group_vars",)
    collections_paths: tuple[Path, ...] = ()

    def has_plugins(self) -> bool:
        """Whether there is anything to load: a plugin file in a folder, or an enabled collection plugin."""
        files = any(path.suffix == ".py" and path.name != "__init__.py"
                    for folder in self.plugin_dirs if folder.is_dir() for path in folder.iterdir())
        return files or any(name.count(".") >= 2 and name not in NATIVE for name in self.enabled)


def plugin_vars(setup: VarsPluginSetup, path: Path, kind: str, names: Sequence[str],
                warn: Callable[[str], None]) -> dict[str, Any]:
    """What the vars plugins give for ``names`` (groups or one host, by ``kind`` "group" or "host") at ``path``,
    merged in the plugins' order (later replacing earlier)."""
    merged: dict[str, Any] = {}
    for name, plugin in _plugins(setup, warn):
        merged.update(_call(name, plugin, path, kind, names))
    return merged


@cache
def _plugins(setup: VarsPluginSetup, warn: Callable[[str], None]) -> tuple[tuple[str, Any], ...]:
    if not installed():
        raise UserError("vars plugins are written against Ansible's Python API, which needs ansible-core on the "
                        "controller", hint=INSTALL_HINT)
    from ansible.plugins.loader import PluginLoader, vars_loader

    from runner.ansible_api.plugin_import import use_collections_paths

    use_collections_paths(setup.collections_paths)
    loader = PluginLoader(vars_loader.class_name, vars_loader.package,
                          [str(directory) for directory in setup.plugin_dirs], vars_loader.subdir)
    loader._clear_caches()  # the search paths are cached per plugin kind, across loaders
    found: dict[str, Any] = {}
    for plugin in loader.all():
        name = _name(plugin)
        if name not in NATIVE:
            found.setdefault(name, plugin)
    for name in setup.enabled:
        if name not in NATIVE and name not in found and name.count(".") >= 2:
            plugin = loader.get(name)
            if plugin is not None:
                found[name] = plugin
    chosen = []
    for name, plugin in found.items():
        if getattr(plugin, "REQUIRES_ENABLED", False) and name not in setup.enabled:
            continue
        if not hasattr(plugin, "get_vars"):
            if not (hasattr(plugin, "get_host_vars") and hasattr(plugin, "get_group_vars")):
                warn(f"The vars plugin {name} from {getattr(plugin, '_original_path', '?')} has neither get_vars "
                     "nor get_host_vars and get_group_vars: ignored")
                continue
            warn_deprecated(f"The vars plugin {name} from {getattr(plugin, '_original_path', '?')} is relying on "
                            "the deprecated entrypoints `get_host_vars` and `get_group_vars`. This plugin should be "
                            "updated to inherit from BaseVarsPlugin and define a 'get_vars' method as the main "
                            "entrypoint instead.")
        chosen.append((name, plugin))
    return tuple(chosen)


def _name(plugin: Any) -> str:
    names = getattr(plugin, "_redirected_names", None)
    if names:
        return str(names[0])
    return os.path.splitext(os.path.basename(getattr(plugin, "_original_path", "") or ""))[0]


def _call(name: str, plugin: Any, path: Path, kind: str, names: Sequence[str]) -> dict[str, Any]:
    from ansible.inventory.group import Group
    from ansible.inventory.host import Host
    from ansible.parsing.dataloader import DataLoader

    entities = [Host(entity) if kind == "host" else Group(entity) for entity in names]
    try:
        if hasattr(plugin, "get_vars"):
            loader = DataLoader()
            loader.set_basedir(str(path))
            data = plugin.get_vars(loader, str(path), entities)
        else:
            data = {}
            for entity in names:
                data.update((plugin.get_host_vars if kind == "host" else plugin.get_group_vars)(entity) or {})
    except Exception as exc:  # ansible-core stops on a failing vars plugin
        raise UserError(f"vars plugin {name} failed for {path}: {type(exc).__name__}: {exc}") from None
    if not isinstance(data, dict):
        raise UserError(f"vars plugin {name} gave {type(data).__name__} for {path}, expected a mapping")
    return data
