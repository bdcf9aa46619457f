"""Local test hosts: N hosts on this machine, each with its own namespaces, overlay root, hostname and sshd.

``TestEnv`` is the library API (the CLI ``provisioning-testenv`` and the test fixtures are thin shells over it);
see docs/decisions.md for why each host is a PID namespace.

Every command asks ``is_default_inventory`` of its inventory sources, so the package loads only that (and its
error type) when it is imported; the rest loads on first use.
"""

from typing import TYPE_CHECKING, Any

from runner.testenv.errors import TestEnvError
from runner.testenv.source import ensure_default_env, is_default_inventory

if TYPE_CHECKING:
    from runner.testenv.env import DEFAULT_STATE_ROOT, TestEnv
    from runner.testenv.host import TestHost
    from runner.testenv.machine import unavailable_reason
    from runner.testenv.users import SUDOPW_PASSWORD

__all__ = ["DEFAULT_STATE_ROOT", "SUDOPW_PASSWORD", "TestEnv", "TestEnvError", "TestHost", "ensure_default_env",
           "is_default_inventory", "unavailable_reason"]

_LAZY = {"DEFAULT_STATE_ROOT": "env", "TestEnv": "env", "TestHost": "host", "unavailable_reason": "machine",
         "SUDOPW_PASSWORD": "users"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"runner.testenv.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'runner.testenv' has no attribute {name!r}")
