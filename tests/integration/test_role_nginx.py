"""The nginx taskserv on a real test host: Debian's nginx without its default server, one server block on the
host's own address and port 80 serving the role's page; idempotent; its health check passes; its delete entry
point removes it."""

from __future__ import annotations

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

SITE = "/etc/nginx/sites-available/provisioning.conf"


@pytest.fixture(scope="module")
def runs(testenv: TestEnv, inventory_path: Path, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[RoleConvergence]:
    yield from converged(testenv, inventory_path, tmp_path_factory, "nginx")


def test_converges_and_is_idempotent(runs: RoleConvergence) -> None:
    assert_converges_idempotently(runs)


def test_package_and_server_block(runs: RoleConvergence) -> None:
    infra = runs.role.infra()
    assert infra.package("nginx").is_installed
    assert f"listen {runs.role.address}:80 default_server;" in infra.file(SITE).content_string
    assert infra.file("/etc/nginx/sites-enabled/provisioning.conf").linked_to == SITE
    assert not infra.file("/etc/nginx/sites-enabled/default").exists
    assert infra.run("nginx -t").rc == 0


def test_serves_the_page_on_the_host_address_only(runs: RoleConvergence) -> None:
    infra, address = runs.role.infra(), runs.role.address
    assert infra.service("nginx").is_running
    assert infra.socket(f"tcp://{address}:80").is_listening
    assert not infra.socket("tcp://0.0.0.0:80").is_listening
    with urllib.request.urlopen(f"http://{address}/", timeout=5) as response:
        assert response.status == 200
        assert response.read().decode() == f"{runs.role.host} is served by nginx\n"


def test_health_check_passes(runs: RoleConvergence) -> None:
    assert assert_health_check_passes(runs.role)["status"] == 200


def test_delete_stops_and_removes(runs: RoleConvergence) -> None:
    deleted = runs.role.delete()
    assert runs.role.changed(deleted) > 0
    infra = runs.role.infra()
    assert not infra.package("nginx").is_installed and not infra.file(SITE).exists
    assert not tcp_answers(runs.role.address, 80)
