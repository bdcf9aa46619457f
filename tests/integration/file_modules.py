"""What the file-module tests share: a scratch directory on the test host, removed after each test, and the
host as root and as ``deploy`` through sudo.

Not a conftest.py: a test file takes what it needs with ``from tests.integration.file_modules import ...``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from runner.connection import BecomeSettings
from tests.integration.remote_harness import RemoteHost, remote_host_fixture

host = remote_host_fixture()
host_as_deploy = remote_host_fixture(user="deploy", become=BecomeSettings())


@pytest.fixture
def scratch(host: RemoteHost, request: pytest.FixtureRequest) -> Iterator[str]:
    """An empty directory on the host, unique to the test (the hosts are shared by the whole suite)."""
    path = f"/tmp/fm-{request.node.name[:40]}-{uuid.uuid4().hex[:8]}".replace("[", "-").replace("]", "")
    host.shell(f"mkdir -p '{path}'")
    yield path
    host.shell(f"rm -rf '{path}'")
