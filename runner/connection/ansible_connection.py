"""Connection plugins written against Ansible's Python API (``ansible_connection: ns.coll.name`` or a
``connection_plugins/`` folder's), as far as this runner can use them: for ``raw`` commands.

The plugin is loaded by ansible-core's own connection loader (the ``connection_plugins/`` folder beside the
playbook, ``ANSIBLE_CONNECTION_PLUGINS``, collections and their routing), one instance per host for the run, and a
``raw`` task's command goes through its ``exec_command`` (with ansible-core's become plugin set on it when the task
becomes, so the plugin sees it as under ansible-core). Modules need this runner's agent, a persistent process on
one bidirectional stream, which a plugin's one-shot ``exec_command`` cannot carry: a module over such a connection
leaves the host unreachable with a message that says so. A plugin that fails to load fails the task with its own
message, as in ansible-core. Needs ansible-core on the controller.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.ansible_api.core import INSTALL_HINT, installed
from runner.ansible_api.plugin_import import use_collections_paths
from runner.connection.transport import CommandResult, RemoteProcess, Transport
from runner.errors import ConnectionFailure

if TYPE_CHECKING:
    from runner.connection.settings import BecomeSettings, ConnectionSettings

# The folders beside the run's playbooks: ansible-core looks for connection plugins there (set by the executor).
_project_dirs: list[Path] = []


class ConnectionPluginError(Exception):
    """The connection plugin could not be loaded or created: the task fails with its message, as in ansible-core."""


def add_project_dirs(directories: Iterable[Path]) -> None:
    """Folders whose ``connection_plugins/`` hold connection plugins (the playbook's, as Ansible adds it)."""
    for directory in directories:
        if directory not in _project_dirs:
            _project_dirs.append(directory)


class AnsibleConnectionTransport(Transport):
    """A host reached through an Ansible connection plugin: raw commands only."""

    def __init__(self, settings: ConnectionSettings, collections_paths: tuple[Path, ...]):
        self.settings = settings
        self.collections_paths = collections_paths
        self.plugin: Any = None
        self.become: BecomeSettings | None = None  # of the command about to run (HostSession.raw sets it)

    async def connect(self) -> None:
        if not installed():
            raise ConnectionFailure(f"connection type '{self.settings.connection}' is a connection plugin, which "
                                    f"needs ansible-core on the controller ({INSTALL_HINT})")
        self.plugin = await asyncio.to_thread(self._load)

    def _load(self) -> Any:
        use_collections_paths(self.collections_paths)
        from ansible.playbook.play_context import PlayContext
        from ansible.plugins.loader import add_all_plugin_dirs, connection_loader

        for directory in _project_dirs:
            add_all_plugin_dirs(str(directory))
        context = PlayContext()
        context.remote_addr = self.settings.address
        context.remote_user = self.settings.user
        context.port = self.settings.port
        try:
            plugin = connection_loader.get(self.settings.connection, context, None)
        except Exception as exc:
            raise ConnectionPluginError(_message(exc)) from None
        if plugin is None:
            raise ConnectionFailure(f"unknown connection type '{self.settings.connection}': neither ssh, local nor "
                                    "a connection plugin in the connection_plugins folders or the collections path")
        return plugin

    async def run(self, command: str, stdin: bytes | None = None, timeout: float | None = None) -> CommandResult:
        return await asyncio.to_thread(self._exec, command, stdin)

    def _exec(self, command: str, stdin: bytes | None) -> CommandResult:
        from ansible.errors import AnsibleConnectionFailure
        from ansible.plugins.loader import become_loader

        self.plugin.set_become_plugin(become_loader.get(self.become.method) if self.become is not None else None)
        try:
            rc, stdout, stderr = self.plugin.exec_command(command, in_data=stdin)
        except AnsibleConnectionFailure as exc:
            raise ConnectionFailure(_message(exc)) from None
        except Exception as exc:
            raise ConnectionPluginError(_message(exc)) from None
        return CommandResult(rc, _bytes(stdout), _bytes(stderr))

    async def start(self, command: str) -> RemoteProcess:
        raise ConnectionFailure(f"connection plugin '{self.settings.connection}' can run raw commands only: "
                                "modules run in this runner's agent, over ssh or local")

    async def close(self) -> None:
        plugin, self.plugin = self.plugin, None
        if plugin is not None:
            try:
                await asyncio.to_thread(plugin.close)
            except Exception:
                pass


def _message(exc: BaseException) -> str:
    return str(getattr(exc, "message", None) or exc)


def _bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value or "").encode()
