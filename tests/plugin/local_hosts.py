"""``local_host``: localhost over the local connection, one agent per test module and interpreter (the
controller's python3 and, where the machine has one, Python 3.8), for the module tests that need no test host.
The class is ``tests/support/local_host.py``'s ``LocalHost``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.local_host import INTERPRETERS, LocalHost


@pytest.fixture(scope="module", params=INTERPRETERS)
def local_host(request: pytest.FixtureRequest) -> Iterator[LocalHost]:
    local = LocalHost(request.param)
    try:
        yield local
    finally:
        local.close()
