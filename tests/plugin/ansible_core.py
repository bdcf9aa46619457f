"""ansible-core in the test interpreter itself (``ansible_core``), for modules written against Ansible's API."""

from __future__ import annotations

import contextlib

import pytest

from tests.support.ansible_core import ensure_ansible_core_importable


def pytest_sessionstart(session: pytest.Session) -> None:
    """Installed before any test runs, not when the first test that asks for it runs: the runner looks for
    ansible-core once per process (``runner.ansible_api.core``), and a test run in this process before the
    install would leave every later one seeing none."""
    with contextlib.suppress(pytest.skip.Exception):
        ensure_ansible_core_importable()  # without a package index, the tests that need it skip


@pytest.fixture(scope="session")
def ansible_core() -> None:
    """ansible-core importable in this interpreter, where the controller finds Ansible-API modules' module_utils:
    installed into the running venv when missing, a skip saying why when the package index cannot be reached."""
    ensure_ansible_core_importable()
