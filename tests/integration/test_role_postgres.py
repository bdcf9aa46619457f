"""The postgres taskserv on a real test host: Debian's postgresql with the cluster its packaging makes, listening
on the host's own address only, pg_hba from the role's template; idempotent; its health check (pg_isready)
passes; its delete entry point removes the server and leaves the cluster's data."""

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

PORT = 5432
CONFIG = "/etc/postgresql/15/main"


@pytest.fixture(scope="module")
def runs(testenv: TestEnv, inventory_path: Path, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[RoleConvergence]:
    yield from converged(testenv, inventory_path, tmp_path_factory, "postgres", {"postgres_max_connections": 50})


def test_converges_and_is_idempotent(runs: RoleConvergence) -> None:
    assert_converges_idempotently(runs)


def test_package_and_configuration(runs: RoleConvergence) -> None:
    infra, address = runs.role.infra(), runs.role.address
    assert infra.package("postgresql").is_installed
    settings = infra.file(f"{CONFIG}/conf.d/provisioning.conf").content_string.splitlines()
    assert f"listen_addresses = '{address}'" in settings and "max_connections = 50" in settings
    hba = infra.file(f"{CONFIG}/pg_hba.conf")
    assert (hba.user, hba.mode) == ("postgres", 0o640)
    rules = [line.split() for line in hba.content_string.splitlines() if line and not line.startswith("#")]
    assert ["host", "all", "all", f"{address}/32", "scram-sha-256"] in rules
    # What the server took from those files.
    show = "su postgres -c \"psql -Atc 'SHOW {}'\""
    assert infra.check_output(show.format("listen_addresses")) == address
    assert infra.check_output(show.format("max_connections")) == "50"


def test_running_on_the_host_address_only(runs: RoleConvergence) -> None:
    infra, address = runs.role.infra(), runs.role.address
    assert infra.service("postgresql").is_running
    assert infra.socket(f"tcp://{address}:{PORT}").is_listening
    assert not infra.socket(f"tcp://127.0.0.1:{PORT}").is_listening
    assert not infra.socket(f"tcp://0.0.0.0:{PORT}").is_listening


def test_health_check_passes(runs: RoleConvergence) -> None:
    assert "accepting connections" in assert_health_check_passes(runs.role)["stdout"]


def test_delete_stops_and_keeps_the_cluster(runs: RoleConvergence) -> None:
    deleted = runs.role.delete()
    assert runs.role.changed(deleted) > 0
    infra = runs.role.infra()
    assert not infra.package("postgresql-15").is_installed
    assert not tcp_answers(runs.role.address, PORT)
    assert infra.file("/var/lib/postgresql/15/main/PG_VERSION").exists
