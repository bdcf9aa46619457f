"""ansible-core in the test interpreter itself (``ansible_core``), for modules written against Ansible's API."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.ansible_core import ansible_core_importable


@pytest.fixture(scope="session")
def ansible_core() -> None:
    """ansible-core importable in this interpreter, where the controller finds Ansible-API modules' module_utils:
    installed into the running venv when missing, a skip saying why when the package index cannot be reached."""
    if ansible_core_importable():
        return
    install = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "ansible-core>=2.15"],
                             capture_output=True, text=True, timeout=600, check=False)
    if install.returncode != 0 or not ansible_core_importable():
        pytest.skip(f"ansible-core is not installed and could not be: {install.stderr.strip()[-300:]}")
