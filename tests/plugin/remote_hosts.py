"""Modules' sessions on host1 of the session's test env, for the module tests: ``host`` (root), ``host_as_deploy``
(the ``deploy`` user through sudo), one agent each per test module; and ``scratch``, an empty directory on the
host for one test (the hosts are shared by the whole suite). The helpers that drive them (``RemoteHost``,
``converge``, ``infra_for``) are in ``tests/support/remote_harness.py``."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from runner.connection import BecomeSettings
from runner.testenv import TestEnv
from tests.support.remote_harness import RemoteHost


@pytest.fixture(scope="module")
def host(testenv: TestEnv) -> Iterator[RemoteHost]:
    remote = RemoteHost(testenv)
    yield remote
    remote.close()


@pytest.fixture(scope="module")
def host_as_deploy(testenv: TestEnv) -> Iterator[RemoteHost]:
    remote = RemoteHost(testenv, user="deploy", become=BecomeSettings())
    yield remote
    remote.close()


@pytest.fixture
def scratch(host: RemoteHost, request: pytest.FixtureRequest) -> Iterator[str]:
    """An empty directory on the host, unique to the test."""
    path = f"/tmp/fm-{request.node.name[:40]}-{uuid.uuid4().hex[:8]}".replace("[", "-").replace("]", "")
    host.shell(f"mkdir -p '{path}'")
    yield path
    host.shell(f"rm -rf '{path}'")
