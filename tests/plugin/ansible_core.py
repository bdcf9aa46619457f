"""ansible-core in the test interpreter itself (``ansible_core``), for modules written against Ansible's API."""

from __future__ import annotations

import pytest

from tests.support.ansible_core import ensure_ansible_core_importable


@pytest.fixture(scope="session")
def ansible_core() -> None:
    """ansible-core importable in this interpreter, where the controller finds Ansible-API modules' module_utils:
    installed into the running venv when missing, a skip saying why when the package index cannot be reached."""
    ensure_ansible_core_importable()
