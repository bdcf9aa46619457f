"""Local test hosts: N hosts on this machine, each with its own namespaces, overlay root, hostname and sshd.

``TestEnv`` is the library API (the CLI ``provisioning-testenv`` and the test fixtures are thin shells over it);
see docs/decisions.md for why each host is a PID namespace.
"""

from runner.testenv.env import DEFAULT_STATE_ROOT, TestEnv
from runner.testenv.errors import TestEnvError
from runner.testenv.host import TestHost
from runner.testenv.machine import unavailable_reason
from runner.testenv.source import ensure_default_env, is_default_inventory
from runner.testenv.users import SUDOPW_PASSWORD

__all__ = ["DEFAULT_STATE_ROOT", "SUDOPW_PASSWORD", "TestEnv", "TestEnvError", "TestHost", "ensure_default_env",
           "is_default_inventory", "unavailable_reason"]
