"""Callback plugins written against Ansible's Python API (``CallbackBase``), found and made as ansible-core does.

ansible-core's own callback loader finds them: in the ``callback_plugins`` folders of the configuration
(``ANSIBLE_CALLBACK_PLUGINS``), the ``callback_plugins/`` folders beside the playbook and in its roles, and the
collections (``NS.COLL.NAME``). Which of them run follows ansible-core's ``TaskQueueManager.load_callbacks``: the
named stdout callback, then every other one found that is not a stdout callback and either does not ask to be
enabled (``CALLBACK_NEEDS_ENABLED``) or is named in ``callbacks_enabled``. Needs ansible-core on the controller.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.ansible_api.core import INSTALL_HINT, installed
from runner.ansible_api.plugin_import import use_collections_paths
from runner.errors import UserError


@dataclass(frozen=True)
class CallbackPluginSetup:
    """Where callback plugins are looked for: the configured folders, the playbook's and roles' folders that may
    hold a ``callback_plugins/`` folder, and the collections path."""

    plugin_dirs: tuple[Path, ...] = ()
    owners: tuple[Path, ...] = ()
    collections_paths: tuple[Path, ...] = ()


def adjacent_plugin_files(setup: CallbackPluginSetup) -> list[Path]:
    """The ``.py`` files of the configured and adjacent callback folders: whether there is anything to load."""
    folders = [*setup.plugin_dirs, *(owner / "callback_plugins" for owner in setup.owners)]
    return [path for folder in folders if folder.is_dir() for path in sorted(folder.glob("*.py"))
            if path.name != "__init__.py"]


def _loader(setup: CallbackPluginSetup) -> Any:
    """A callback loader as ansible-core's own, searching the folders of ``setup`` alone: one per run, so a
    process that runs several playbooks (a warm controller) never finds another project's plugins."""
    if not installed():
        raise UserError("callback plugins are written against Ansible's Python API, which needs ansible-core on "
                        "the controller", hint=INSTALL_HINT)
    use_collections_paths(setup.collections_paths)
    from ansible.plugins.loader import PluginLoader, callback_loader

    loader = PluginLoader(callback_loader.class_name, callback_loader.package,
                          [str(directory) for directory in setup.plugin_dirs], callback_loader.subdir,
                          required_base_class=callback_loader.base_class)
    loader._clear_caches()  # the search paths are cached per plugin kind, across loaders
    for directory in (owner / "callback_plugins" for owner in setup.owners):
        if directory.is_dir():
            loader.add_directory(str(directory))
    return loader


def stdout_plugin(name: str, setup: CallbackPluginSetup) -> Any:
    """The stdout callback plugin ``name``, ready to take events; a UserError when it cannot be loaded."""
    loader = _loader(setup)
    try:
        plugin = loader.get(name)
    except Exception as exc:  # the plugin's own import or constructor failed
        raise UserError(f"could not load the {name!r} callback plugin: {type(exc).__name__}: {exc}") from None
    if not plugin:
        raise UserError(f"could not load the {name!r} callback plugin: no callback plugin of that name in the "
                        "callback_plugins folders (beside the playbook, in its roles, ANSIBLE_CALLBACK_PLUGINS) "
                        "or the collections")
    _ready(plugin)
    return plugin


def other_plugins(stdout_name: str | None, enabled: Sequence[str], setup: CallbackPluginSetup, *,
                  native: Callable[[str], bool], warn: Callable[[str], None]) -> list[Any]:
    """The callback plugins that run beside the stdout one, in ansible-core's order. ``native``: enabled names
    this runner reports natively (its junit), left to it; ``warn`` takes ansible-core's warnings."""
    wanted = [name for name in enabled if not native(name)]
    if not wanted and not adjacent_plugin_files(setup):
        return []  # nothing of Ansible's to load: ansible-core's own callbacks all need enabling
    loader = _loader(setup)
    kinds: dict[str, Any] = {kind.ansible_name: kind for kind in loader.all(class_only=True)}
    for name in wanted:
        kind = loader.get(name, class_only=True)
        if kind:
            kinds.setdefault(kind.ansible_name, kind)
        else:
            warn(f"Skipping callback plugin '{name}', unable to load")
    for shown in (stdout_name, f"ansible.builtin.{stdout_name}", f"ansible.legacy.{stdout_name}"):
        kinds.pop(shown or "", None)
    plugins = []
    for kind in kinds.values():
        name = _enabled_name(kind)
        needs_enabled = getattr(kind, "CALLBACK_NEEDS_ENABLED", getattr(kind, "CALLBACK_NEEDS_WHITELIST", False))
        if getattr(kind, "CALLBACK_TYPE", "") == "stdout" or (needs_enabled and name not in enabled):
            continue
        if native(name):
            continue
        try:
            plugin = kind()
            _ready(plugin)
        except Exception as exc:  # a callback that fails to start is a warning in ansible-core, never fatal
            warn(f"Failed to load callback plugin {name!r}: {type(exc).__name__}: {exc}")
            continue
        plugins.append(plugin)
    return plugins


def _enabled_name(kind: Any) -> str:
    """The name ``callbacks_enabled`` names the plugin by: its collection name, or its file's."""
    names = getattr(kind, "_redirected_names", None)
    return str(names[0]) if names else os.path.splitext(os.path.basename(kind._original_path))[0]


def _ready(plugin: Any) -> None:
    init = getattr(plugin, "_init_callback_methods", None)  # ansible-core 2.19's: which v2_ methods it has
    if init is not None:
        init()
    plugin.set_options()
