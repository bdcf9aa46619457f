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

# Where the machines this project is developed on have it; ANSIBLE_CORE_PYTHON names another.
_KNOWN = (Path("/opt/ansible-core/bin/python3"),)


def ansible_core_python() -> str:
    """A Python that imports ansible-core: ANSIBLE_CORE_PYTHON, the known place, this one, else a skip."""
    candidates = [os.environ.get("ANSIBLE_CORE_PYTHON", ""), *map(str, _KNOWN), sys.executable]
    for python in filter(None, candidates):
        if shutil.which(python) and _imports_ansible(python):
            return python
    pytest.skip("ansible-core is not installed (set ANSIBLE_CORE_PYTHON to a Python that imports it, or "
                "pip install ansible-core into a throwaway venv)")


def ansible_binary(name: str) -> Path:
    """``ansible-inventory`` beside ansible-core's Python."""
    path = Path(ansible_core_python()).parent / name
    if not path.exists():
        pytest.skip(f"{name} is not beside {ansible_core_python()}")
    return path


def _imports_ansible(python: str) -> bool:
    done = subprocess.run([python, "-c", "import ansible.cli"], capture_output=True, timeout=120, check=False)
    return done.returncode == 0


def ansible_core_importable() -> bool:
    """ansible-core importable in this interpreter (looked for afresh: it may have just been installed)."""
    importlib.invalidate_caches()
    return importlib.util.find_spec("ansible") is not None
