"""The runc taskserv on a real test host: Debian's runc installed, answering --version (its health check);
idempotent; its delete entry point removes it."""

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


@pytest.fixture(scope="module")
def runs(testenv: TestEnv, inventory_path: Path, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[RoleConvergence]:
    yield from converged(testenv, inventory_path, tmp_path_factory, "runc")


def test_converges_and_is_idempotent(runs: RoleConvergence) -> None:
    assert_converges_idempotently(runs)


def test_package_installed(runs: RoleConvergence) -> None:
    infra = runs.role.infra()
    assert infra.package("runc").is_installed
    assert infra.file("/usr/sbin/runc").is_executable


def test_health_check_passes(runs: RoleConvergence) -> None:
    assert assert_health_check_passes(runs.role)["stdout"].startswith("runc version 1.1")


def test_delete_removes(runs: RoleConvergence) -> None:
    deleted = runs.role.delete()
    assert runs.role.changed(deleted) > 0
    assert not runs.role.infra().package("runc").is_installed
