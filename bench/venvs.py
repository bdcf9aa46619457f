"""The other runners' virtual environments: ansible-core and pyinfra, each installed from PyPI on first use.

Each tool lives in its own venv under bench/.venvs/ (git-ignored) so neither its dependencies nor ours leak
into the other's measurements.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

VENVS = Path(__file__).resolve().parent / ".venvs"

# runner name -> (pip requirement, console script the benchmark runs)
TOOLS: dict[str, tuple[str, str]] = {
    "ansible": ("ansible-core", "ansible-playbook"),
    "pyinfra": ("pyinfra", "pyinfra"),
}


def tool_command(runner: str) -> Path:
    """The runner's console script, installing its venv first if it is missing."""
    requirement, script = TOOLS[runner]
    venv = VENVS / runner
    command = venv / "bin" / script
    if not command.exists():
        print(f"installing {requirement} into {venv} (first run only)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", requirement], check=True)
    return command


def tool_version(runner: str) -> str:
    """The installed version of the runner's package, for the results."""
    requirement, _ = TOOLS[runner]
    python = VENVS / runner / "bin" / "python"
    code = f"import importlib.metadata as m; print(m.version({requirement!r}))"
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True).stdout.strip()
