"""The containerd taskserv on a real test host: Debian's containerd (with runc), config.toml from the role's
template, run through the init script the role adds on hosts without systemd; idempotent; its health check asks
the daemon over its socket; its delete entry point removes it."""

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
)

pytestmark = pytest.mark.hosts

SOCKET = "/run/containerd/containerd.sock"


@pytest.fixture(scope="module")
def runs(testenv: TestEnv, inventory_path: Path, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[RoleConvergence]:
    yield from converged(testenv, inventory_path, tmp_path_factory, "containerd",
                         {"containerd_max_concurrent_downloads": 2})


def test_converges_and_is_idempotent(runs: RoleConvergence) -> None:
    assert_converges_idempotently(runs)


def test_packages_and_configuration(runs: RoleConvergence) -> None:
    infra = runs.role.infra()
    assert infra.package("containerd").is_installed and infra.package("runc").is_installed
    config = infra.file("/etc/containerd/config.toml").content_string.splitlines()
    assert f'    stream_server_address = "{runs.role.address}"' in config
    assert "    max_concurrent_downloads = 2" in config
    # containerd reads it: the configuration it runs with, as it prints it.
    effective = infra.check_output("containerd --config /etc/containerd/config.toml config dump")
    assert f'stream_server_address = "{runs.role.address}"' in effective
    assert infra.file("/etc/init.d/containerd").mode == 0o755


def test_daemon_runs_and_answers_on_its_socket(runs: RoleConvergence) -> None:
    infra = runs.role.infra()
    assert infra.service("containerd").is_running
    assert infra.file(SOCKET).is_socket
    assert infra.check_output(f"ctr --address {SOCKET} namespaces list -q") is not None


def test_health_check_passes(runs: RoleConvergence) -> None:
    # ctr prints the server's part only when it reached the daemon.
    assert "Server:" in assert_health_check_passes(runs.role)["stdout"]


def test_delete_stops_and_removes(runs: RoleConvergence) -> None:
    deleted = runs.role.delete()
    assert runs.role.changed(deleted) > 0
    infra = runs.role.infra()
    assert not infra.package("containerd").is_installed
    assert not infra.file(SOCKET).exists and not infra.file("/etc/init.d/containerd").exists
