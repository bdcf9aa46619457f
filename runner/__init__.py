"""provisioning: an agentless, Ansible-compatible playbook runner.

Stages live in sub-packages named for what they do (see docs/architecture.md); data flows one way:
loader -> models -> compiler -> plan -> executor -> workers -> connection -> remote agent -> modules, and the
packages are in layers that import only downwards (contracts in pyproject.toml, checked by lint-imports).
"""

__version__ = "0.1.0"

# Before anything imports asyncssh: its search for native libraries would otherwise run ldconfig, gcc and ld.
from runner.util import asyncssh_hook as _asyncssh_hook

_asyncssh_hook.install()
