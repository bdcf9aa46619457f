"""ansible-core's connection as an action plugin's ``ActionBase`` uses it, over the host's session.

ActionBase's own helpers (``_make_tmp_path``, ``_transfer_file``, ``_transfer_data``, ``_fixup_perms2``,
``_remote_expand_user``, ``_low_level_execute_command``, ``_remove_tmp_path`` ...) run unchanged on top of this:
they build their commands with ansible-core's real shell plugin (``sh`` unless ``ansible_shell_type`` names
another) and hand them to ``exec_command``, which runs them on a plain exec channel of the host's connection;
``put_file`` and ``fetch_file`` stream through the host's agent. The plugin runs in a thread; each of these calls
waits for the worker's event loop to carry it.

Escalation follows ActionBase's decision: it asks the become stand-in to wrap a command only when it would become
(``sudoable`` and a different user), and the next ``exec_command`` then runs with the task's become, which answers
the password prompt as every other raw command does. Files go over as the connecting user, as Ansible's
``put_file`` sends them; ``_fixup_perms2`` makes them readable to an unprivileged become user as in Ansible.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine, Mapping
from pathlib import Path
from typing import Any, TypeVar

from runner.connection import BecomeSettings, HostSession

_T = TypeVar("_T")


class UnsupportedActionFeature(Exception):
    """The plugin reached for a part of Ansible's executor the stand-in does not have."""


class MissingConnectionAttribute(UnsupportedActionFeature, AttributeError):
    """An attribute of ansible-core's connection the stand-in has not: an AttributeError too, so that code asking
    ``getattr(connection, name, default)`` or ``hasattr`` gets its default, as with a connection plugin that lacks
    it; used directly, it fails the task naming it."""


class BecomeStandIn:
    """The task's become as ActionBase reads it: its options, and a ``build_become_command`` that marks the next
    command of the connection to run with escalation (the session wraps it and answers the prompt)."""

    def __init__(self, become: BecomeSettings, connection: ActionConnection):
        self._become = become
        self._connection = connection
        self.name = become.method
        self.success = ""  # ActionBase strips a success marker; the session has already removed its own
        self.prompt = ""

    def get_option(self, name: str) -> Any:
        options = {"become_user": self._become.user, "become_method": self._become.method,
                   "become_pass": self._become.password, "become_flags": self._become.flags}
        if name not in options:
            raise KeyError(name)
        return options[name]

    def build_become_command(self, cmd: str, _shell: Any) -> str:
        self._connection.escalate_next = True
        return cmd


def load_shell(family: str, variables: Mapping[str, Any], template: Any) -> Any:
    """ansible-core's shell plugin ``family`` with its options read from the task's variables (``ansible_remote_tmp``,
    ``ansible_admin_users`` ...), rendered as ansible-core renders them."""
    from ansible.constants import config
    from ansible.plugins.loader import shell_loader

    shell = shell_loader.get(family)
    if shell is None:
        # ansible-core's words for a shell type it has no plugin for
        raise UnsupportedActionFeature(f"Invalid shell type specified ({family}), or the plugin for that shell type "
                                       "is missing.")
    definitions = config.get_configuration_definitions("shell", shell._load_name) or {}
    names = {entry["name"] for option in definitions.values() for entry in option.get("vars") or []}
    shell.set_options(var_options={name: template(variables[name]) for name in names if name in variables})
    return shell


class ActionConnection:
    """What ActionBase uses of ansible-core's connection; anything else is a clear failure naming it."""

    allow_executable = True  # commands go through the play's executable (/bin/sh -c ...), as over ssh
    has_pipelining = True  # modules never need a remote file: the agent runs them
    always_pipeline_modules = True
    _remote_is_local = False
    module_implementation_preferences = (".py", "")

    def __init__(self, plugin: str, session: HostSession, loop: asyncio.AbstractEventLoop, shell: Any,
                 become: BecomeSettings | None):
        self._plugin = plugin
        self._session = session
        self._loop = loop
        self._shell = shell
        self._become_settings = become
        self.become = BecomeStandIn(become, self) if become is not None else None
        self.escalate_next = False
        settings = session.settings
        self.transport = settings.connection
        self._options = {"remote_user": settings.user, "remote_addr": settings.address, "host": settings.address,
                         "port": settings.port}
        self.cwd: bytes | None = None  # set by ActionBase for the local connection; commands start in the home

    def __getattr__(self, name: str) -> Any:
        raise MissingConnectionAttribute(f"the action plugin {self._plugin} uses the connection's {name}, which "
                                         "only ansible-core's executor has")

    def _wait(self, call: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(call, self._loop).result()

    def get_option(self, name: str) -> Any:
        if name not in self._options:
            raise KeyError(name)
        return self._options[name]

    def is_pipelining_enabled(self, wrap_async: bool = False) -> bool:
        return True

    def exec_command(self, cmd: str, in_data: bytes | None = None, sudoable: bool = True) -> tuple[int, bytes, bytes]:
        become = self._become_settings if sudoable and self.escalate_next else None
        self.escalate_next = False
        result = self._wait(self._session.raw(cmd, become=become, stdin=in_data))
        return result.rc, result.stdout, result.stderr

    def put_file(self, in_path: str, out_path: str) -> None:
        from ansible.errors import AnsibleError, AnsibleFileNotFound

        if not os.path.exists(in_path):
            raise AnsibleFileNotFound(f"file or module does not exist: {in_path}")
        reply = self._wait(self._session.put(Path(in_path), out_path))
        if reply.get("failed"):
            raise AnsibleError(f"failed to transfer file to {out_path}: {reply.get('msg')}")

    def fetch_file(self, in_path: str, out_path: str) -> None:
        from ansible.errors import AnsibleError

        reply, content = self._wait(self._session.fetch(in_path))
        if reply.get("failed"):
            raise AnsibleError(f"failed to transfer file from {in_path}: {reply.get('msg')}")
        Path(out_path).write_bytes(content)
