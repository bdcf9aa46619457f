"""The project's console scripts as the environment running the tests installed them.

Tests run ``provisioning-playbook`` and the like from the interpreter's own ``bin/`` (beside ``sys.executable``),
never by bare name: on a fresh machine nothing puts ``.venv/bin`` on PATH, and a script found on PATH may belong to
another install of the project.
"""

from __future__ import annotations

import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def script(name: str) -> str:
    """The path of console script ``name`` (``provisioning``, ``provisioning-playbook``, ...) of this environment."""
    path = BIN / name
    if not path.exists():
        raise FileNotFoundError(f"{name} is not installed beside {sys.executable}: run ./install.sh")
    return str(path)
