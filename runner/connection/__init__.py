"""Connections to hosts: SSH (asyncssh) or local, and the remote agent spoken to over them.

``HostSession`` is the one entry point the executor uses; it knows nothing of playbooks.
"""

from runner.connection.session import HostSession
from runner.connection.settings import BecomeSettings, ConnectionSettings

__all__ = ["BecomeSettings", "ConnectionSettings", "HostSession"]
