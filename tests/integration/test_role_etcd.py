"""The etcd taskserv on a real test host: Debian's etcd-server with its settings from the role's template, client
and peer URLs on the host's own address, healthy; idempotent; its delete entry point removes it."""

from __future__ import annotations

import json
import urllib.request
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

CLIENT_PORT, PEER_PORT = 2379, 2380


@pytest.fixture(scope="module")
def runs(testenv: TestEnv, inventory_path: Path, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[RoleConvergence]:
    yield from converged(testenv, inventory_path, tmp_path_factory, "etcd")


def test_converges_and_is_idempotent(runs: RoleConvergence) -> None:
    assert_converges_idempotently(runs)


def test_package_settings_and_data_dir(runs: RoleConvergence) -> None:
    infra, address, name = runs.role.infra(), runs.role.address, runs.role.host
    assert infra.package("etcd-server").is_installed
    settings = infra.file("/etc/default/etcd").content_string.splitlines()
    assert f'ETCD_LISTEN_CLIENT_URLS="http://{address}:{CLIENT_PORT}"' in settings
    assert f'ETCD_LISTEN_PEER_URLS="http://{address}:{PEER_PORT}"' in settings
    # The play ran on one host: a single-member cluster.
    assert f'ETCD_INITIAL_CLUSTER="{name}=http://{address}:{PEER_PORT}"' in settings
    data = infra.file("/var/lib/etcd/default")
    assert data.is_directory and (data.user, data.mode) == ("etcd", 0o700)
    assert infra.file("/var/lib/etcd/default/member").is_directory


def test_running_on_the_host_address(runs: RoleConvergence) -> None:
    infra, address = runs.role.infra(), runs.role.address
    assert infra.service("etcd").is_running
    for port in (CLIENT_PORT, PEER_PORT):
        assert infra.socket(f"tcp://{address}:{port}").is_listening
        assert not infra.socket(f"tcp://127.0.0.1:{port}").is_listening
    with urllib.request.urlopen(f"http://{address}:{CLIENT_PORT}/health", timeout=5) as response:
        assert json.load(response)["health"] == "true"


def test_health_check_passes(runs: RoleConvergence) -> None:
    assert assert_health_check_passes(runs.role)["status"] == 200


def test_delete_stops_and_removes(runs: RoleConvergence) -> None:
    deleted = runs.role.delete()
    assert runs.role.changed(deleted) > 0
    assert not runs.role.infra().package("etcd-server").is_installed
    assert not tcp_answers(runs.role.address, CLIENT_PORT)
