"""The os taskserv on a real test host: host name, time zone, /etc/hosts lines for the play's hosts, base
packages; idempotent; its health check passes; its delete entry point takes back what names the play's hosts."""

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

TIMEZONE = "Europe/Madrid"
MARKERS = ("# BEGIN provisioning hosts", "# END provisioning hosts")


@pytest.fixture(scope="module")
def runs(testenv: TestEnv, inventory_path: Path, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[RoleConvergence]:
    convergence = converged(testenv, inventory_path, tmp_path_factory, "os", {"os_timezone": TIMEZONE})
    runs = next(convergence)
    yield runs
    next(convergence, None)  # the delete entry point
    # The time zone is part of the base system and stays on delete: give the shared host back its own.
    runs.role.infra().run("ln -sfn /usr/share/zoneinfo/Etc/UTC /etc/localtime && echo Etc/UTC > /etc/timezone")


def hosts_block(runs: RoleConvergence) -> list[str] | None:
    """The lines between the role's markers in /etc/hosts, None without the markers."""
    lines = runs.role.infra().file("/etc/hosts").content_string.splitlines()
    if MARKERS[0] not in lines:
        return None
    return lines[lines.index(MARKERS[0]) + 1:lines.index(MARKERS[1])]


def test_converges_and_is_idempotent(runs: RoleConvergence) -> None:
    assert_converges_idempotently(runs)


def test_host_name_and_time_zone(runs: RoleConvergence) -> None:
    infra = runs.role.infra()
    assert infra.check_output("hostname") == runs.role.host
    assert infra.file("/etc/hostname").content_string.strip() == runs.role.host
    assert infra.file("/etc/localtime").linked_to == f"/usr/share/zoneinfo/{TIMEZONE}"
    assert infra.file("/etc/timezone").content_string == f"{TIMEZONE}\n"
    assert infra.check_output("date +%Z") in ("CET", "CEST")


def test_hosts_file_names_the_play_hosts(runs: RoleConvergence) -> None:
    # The play ran on one host: its line alone, between the role's markers.
    assert hosts_block(runs) == [f"{runs.role.address} {runs.role.host}"]


def test_base_packages_installed(runs: RoleConvergence) -> None:
    infra = runs.role.infra()
    for package in ("tzdata", "ca-certificates", "procps", "iproute2"):
        assert infra.package(package).is_installed, package


def test_health_check_passes(runs: RoleConvergence) -> None:
    assert assert_health_check_passes(runs.role)["rc"] == 0


def test_delete_takes_back_the_hosts_lines(runs: RoleConvergence) -> None:
    deleted = runs.role.delete()
    assert runs.role.changed(deleted) > 0
    assert hosts_block(runs) is None
    assert not runs.role.infra().file("/etc/motd").exists
