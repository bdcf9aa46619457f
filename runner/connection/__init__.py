"""Connections to hosts: SSH (asyncssh) or local, and the remote agent spoken to over them.

``HostSession`` is the one entry point the executor uses; it knows nothing of playbooks. It is imported on first
use, so commands that never connect (``--syntax-check``, ``--list-tasks``) do not load asyncssh.
"""

from typing import TYPE_CHECKING, Any

from runner.connection.settings import BecomeSettings, ConnectionSettings, ConnectionVariableError

if TYPE_CHECKING:
    from runner.connection.session import HostSession

__all__ = ["BecomeSettings", "ConnectionSettings", "ConnectionVariableError", "HostSession"]


def __getattr__(name: str) -> Any:
    if name == "HostSession":
        from runner.connection.session import HostSession

        return HostSession
    raise AttributeError(name)
