"""The redis taskserv on a real test host: Debian's redis-server configured from the role's template, bound to the
host's own address, answering PING; idempotent; its health check passes; its delete entry point removes it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.role_converge import (
    RoleConvergence,
    assert_converges_idempotently,
    assert_health_check_passes,
    converged,
    tcp_answers,
)

pytestmark = pytest.mark.hosts

PORT = 6379


@pytest.fixture(scope="module")
def runs(testenv: TestEnv, inventory_path: Path, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[RoleConvergence]:
    yield from converged(testenv, inventory_path, tmp_path_factory, "redis", {"redis_maxmemory": "64mb"})


def test_converges_and_is_idempotent(runs: RoleConvergence) -> None:
    assert_converges_idempotently(runs)


def test_package_and_configuration(runs: RoleConvergence) -> None:
    infra = runs.role.infra()
    assert infra.package("redis-server").is_installed
    config = infra.file("/etc/redis/redis.conf")
    assert (config.user, config.group, config.mode) == ("redis", "redis", 0o640)
    lines = config.content_string.splitlines()
    assert f"bind {runs.role.address}" in lines and f"port {PORT}" in lines and "maxmemory 64mb" in lines


def test_running_on_the_host_address_only(runs: RoleConvergence) -> None:
    infra, address = runs.role.infra(), runs.role.address
    assert infra.service("redis-server").is_running
    assert infra.socket(f"tcp://{address}:{PORT}").is_listening
    assert not infra.socket(f"tcp://0.0.0.0:{PORT}").is_listening
    assert not infra.socket(f"tcp://127.0.0.1:{PORT}").is_listening
    assert infra.check_output(f"redis-cli -h {address} -p {PORT} ping") == "PONG"


def test_health_check_passes(runs: RoleConvergence) -> None:
    assert_health_check_passes(runs.role)


def test_delete_stops_and_removes(runs: RoleConvergence) -> None:
    deleted = runs.role.delete()
    assert runs.role.changed(deleted) > 0
    assert not runs.role.infra().package("redis-server").is_installed
    assert not tcp_answers(runs.role.address, PORT)
