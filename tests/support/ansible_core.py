"""Finding an ansible-core to compare with: its Python, or a skip that says why there is none; and whether
ansible-core is importable in the test interpreter itself, for modules written against Ansible's API (the optional
extra ``provisioning[ansible]``; the plugin's ``ansible_core`` fixture installs it).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def ansible_core_python() -> str:
    """A Python that imports ansible-core: ANSIBLE_CORE_PYTHON, else the compatibility suite's baseline venv at
    its pinned version (bench/.venvs/, made with pip on first use, as ``python -m bench.compat --runner ansible``
    makes it), else a skip that says why."""
    configured = os.environ.get("ANSIBLE_CORE_PYTHON", "")
    if configured and shutil.which(configured) and _imports_ansible(configured):
        return configured
    from bench.compat.runners import ansible

    try:
        return str(ansible().python)
    except (SystemExit, subprocess.CalledProcessError) as exc:
        pytest.skip(f"ansible-core could not be installed into a venv for comparison ({exc}); set "
                    "ANSIBLE_CORE_PYTHON to a Python that imports it")


def ansible_binary(name: str) -> Path:
    """``ansible-inventory`` beside ansible-core's Python."""
    path = Path(ansible_core_python()).parent / name
    if not path.exists():
        pytest.skip(f"{name} is not beside {ansible_core_python()}")
    return path


def _imports_ansible(python: str) -> bool:
    done = subprocess.run([python, "-c", "import ansible.cli"], capture_output=True, timeout=120, check=False)
    return done.returncode == 0


def ensure_ansible_core_importable() -> None:
    """ansible-core importable in this interpreter: installed into the running venv when missing (the optional
    extra ``provisioning[ansible]``), a skip saying why when the package index cannot be reached."""
    if ansible_core_importable():
        return
    install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "ansible-core>=2.15"],
                             capture_output=True, text=True, timeout=600, check=False)
    if install.returncode != 0 or not ansible_core_importable():
        pytest.skip(f"ansible-core is not installed and could not be: {install.stderr.strip()[-300:]}")


def ansible_core_importable() -> bool:
    """ansible-core importable in this interpreter (looked for afresh: it may have just been installed)."""
    importlib.invalidate_caches()
    return importlib.util.find_spec("ansible") is not None
