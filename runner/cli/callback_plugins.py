"""Which callback plugins written against Ansible's Python API a run reports to, from the configuration: the
``stdout_callback`` when it is not one of this runner's own views, and the others ansible-core would load beside
it (``runner.ansible_api.callback_plugins``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from runner.callbacks import native_stdout_callback
from runner.callbacks.ansible_plugin import AnsibleCallbackPlugins
from runner.callbacks.base import Callback
from runner.cli.project import Project
from runner.config.support import enabled_callback, is_ansible_stdout_callback
from runner.errors import OptionError, UserError


def plugin_setup(project: Project, owners: Sequence[Path]) -> Any:
    """Where the run's callback plugins are looked for: the configured folders, and ``owners``' (the playbook's
    folder, its roles') ``callback_plugins/`` folders."""
    from runner.ansible_api.callback_plugins import CallbackPluginSetup

    config = project.config
    return CallbackPluginSetup(plugin_dirs=tuple(Path(path).expanduser() for path in config.callback_plugins or []),
                               owners=tuple(owners),
                               collections_paths=tuple(Path(path) for path in config.collections_path or []))


def stdout_plugin_view(project: Project, owners: Sequence[Path], warn: Callable[[str], None], *,
                       diff: bool = False) -> Callback | None:
    """The configured stdout callback as a plugin, None when it is one of this runner's own views."""
    name = project.config.stdout_callback
    if native_stdout_callback(name) is not None:
        return None
    from runner.ansible_api.callback_plugins import stdout_plugin

    try:
        plugin = stdout_plugin(name, plugin_setup(project, owners))
    except UserError as exc:
        origin = project.config.origin("stdout_callback")
        raise OptionError(f"stdout_callback = {name} ({origin}): {exc.message}", origin.position,
                          hint=exc.hint) from None
    return AnsibleCallbackPlugins([plugin], connection_of=_connection_of(project), warn=warn, diff=diff)


def other_plugin_callbacks(project: Project, owners: Sequence[Path], warn: Callable[[str], None], *,
                           diff: bool = False) -> Callback | None:
    """The callback plugins that run beside the stdout one (those not needing enabling, and those of
    ``callbacks_enabled``), None when there are none."""
    from runner.ansible_api.callback_plugins import adjacent_plugin_files, other_plugins
    from runner.ansible_api.core import installed

    config = project.config
    setup = plugin_setup(project, owners)
    enabled = [name.strip() for name in config.callbacks_enabled or [] if name.strip()]
    # this runner's reporters, and ansible-core's stdout callbacks, which ansible-core skips when named there
    native = [name for name in enabled if enabled_callback(name) is not None or is_ansible_stdout_callback(name)]
    if len(native) == len(enabled) and not adjacent_plugin_files(setup):
        return None
    if not installed():
        return None  # the configuration's check already said the enabled names are not run without ansible-core
    plugins = other_plugins(config.stdout_callback, enabled, setup,
                            native=lambda name: enabled_callback(name) is not None, warn=warn)
    if not plugins:
        return None
    return AnsibleCallbackPlugins(plugins, connection_of=_connection_of(project), warn=warn, diff=diff)


def _connection_of(project: Project) -> Callable[[str], str]:
    def connection(host: str) -> str:
        value = project.inventory.host_vars(host).get("ansible_connection") if project.inventory.get_host(host) \
            else None
        return str(value) if isinstance(value, str) and value else "ssh"

    return connection
