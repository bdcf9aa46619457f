"""Converging one shipped role (the repository's roles/) on a test host the way an operator would: a tiny
playbook with an ordinary ``roles:`` list, run with ``provisioning-playbook`` four times — ``--check`` on a host
without the taskserv (it must succeed and predict a change), the first run, a re-run that must change nothing, and
``--check`` afterwards that must predict no change. Then the role once more as a
taskserv play runs it (supported-system check, role, health check from its meta/main.yml), and its ``delete``
entry point.

The roles run on host3: the module tests work on host1, and apt's lock or a busy shell there would slow both.

Not a conftest.py: each tests/integration/test_role_<name>.py takes ``converged`` and the assertions it needs.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from runner.taskservs.catalog import TaskservCatalog
from runner.taskservs.tasks import health_check_tasks, os_support_task
from runner.testenv import TestEnv
from tests.support.playbook_run import PlaybookRun, run_playbook
from tests.support.remote_harness import infra_for

ROLES = Path(__file__).resolve().parents[2] / "roles"
HOST = "host3"


@dataclass
class ShippedRole:
    """A role of roles/ and the test host it runs on, with the parameters the test gives it."""

    env: TestEnv
    inventory: Path
    name: str
    workdir: Path
    variables: dict[str, Any] = field(default_factory=dict)
    host: str = HOST

    @property
    def address(self) -> str:
        return next(host.address for host in self.env.hosts() if host.name == self.host)

    def infra(self) -> Any:
        """A testinfra host for the role's host, to check its state independently of the runner."""
        return infra_for(self.env, self.host)

    def changed(self, run: PlaybookRun) -> int:
        return run.stats[self.host]["changed"]

    def apply(self, *args: str) -> PlaybookRun:
        """The role as a plain ``roles:`` entry, with the test's variables as its parameters."""
        entry = {"role": self.name, **self.variables}
        return self._run("apply", {"roles": [entry]}, *args)

    def apply_as_taskserv(self) -> PlaybookRun:
        """The role with what a taskserv play runs around it: the supported-system check before, and after it its
        handlers and the health check of its meta/main.yml (tried with its retries and interval)."""
        taskserv = TaskservCatalog([ROLES], self.workdir).get(self.name)
        assert taskserv.meta.health_check is not None, f"{self.name} declares no health check"
        around = {"pre_tasks": [os_support_task(taskserv)] if taskserv.meta.os_support else [],
                  "tasks": health_check_tasks(self.name, taskserv.meta.health_check)}
        # A play's own tasks see its roles' defaults, which the health check's values use (redis_port...).
        return self._run("taskserv", {**_plain(around), "roles": [{"role": self.name, **self.variables}]})

    def delete(self) -> PlaybookRun:
        """The role's ``delete`` entry point (tasks/delete.yml), as ``provisioning-infra taskserv delete`` runs it."""
        task = {"import_role": {"name": self.name, "tasks_from": "delete"}, "vars": self.variables}
        run = self._run("delete", {"tasks": [task]})
        assert run.exit_code == 0, run.output
        return run

    def _run(self, purpose: str, play: dict[str, Any], *args: str) -> PlaybookRun:
        playbook = self.workdir / f"{self.name}-{purpose}.yml"
        playbook.write_text(yaml.safe_dump([{"name": f"{self.name} ({purpose})", "hosts": self.host, **play}],
                                           sort_keys=False))
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PROVISIONING_ROLES_PATH", str(ROLES))
            return run_playbook(self.inventory, playbook, *args)


@dataclass
class RoleConvergence:
    """The role and its runs: --check before, first, re-run, --check afterwards."""

    role: ShippedRole
    predicted: PlaybookRun
    first: PlaybookRun
    second: PlaybookRun
    check: PlaybookRun


def converged(env: TestEnv, inventory: Path, factory: pytest.TempPathFactory, name: str,
              variables: dict[str, Any] | None = None) -> Iterator[RoleConvergence]:
    """For a module-scoped fixture: the role converged on its host. Its delete entry point runs before (the hosts
    are shared: an earlier test or session may have left the taskserv there) and after (so the next one finds a
    host without it)."""
    role = ShippedRole(env, inventory, name, factory.mktemp(name), dict(variables or {}))
    role.delete()
    try:
        yield RoleConvergence(role, role.apply("--check"), role.apply(), role.apply(), role.apply("--check"))
    finally:
        role.delete()


def assert_converges_idempotently(runs: RoleConvergence) -> None:
    """--check before and the first run succeed and change; the re-run and --check afterwards report changed=0."""
    role = runs.role
    assert runs.predicted.exit_code == 0, runs.predicted.output
    assert role.changed(runs.predicted) > 0, runs.predicted.output
    assert runs.first.exit_code == 0, runs.first.output
    assert role.changed(runs.first) > 0, runs.first.output
    for run in (runs.second, runs.check):
        assert run.exit_code == 0, run.output
        assert role.changed(run) == 0, run.output


def assert_health_check_passes(role: ShippedRole) -> dict[str, Any]:
    """Run as a taskserv on the converged host: nothing changes and the health check from meta/main.yml passes
    (it runs, and does not fail). Returns the health check's result."""
    run = role.apply_as_taskserv()
    assert run.exit_code == 0, run.output
    assert role.changed(run) == 0, run.output
    assert run.report is not None
    checks = [task["hosts"][role.host] for play in run.report["plays"] for task in play["tasks"]
              if task["task"]["name"].startswith(f"{role.name} : health check")]
    assert len(checks) == 1, run.output
    assert not checks[0].get("failed") and not checks[0].get("skipped"), checks[0]
    return checks[0]


def tcp_answers(address: str, port: int) -> bool:
    """Whether something accepts a TCP connection on address:port (the test hosts share the controller's
    network namespace, so the controller can ask)."""
    try:
        with socket.create_connection((address, port), timeout=5):
            return True
    except OSError:
        return False


def _plain(value: Any) -> Any:
    """``value`` without the source positions the models keep under non-string keys, so it dumps as YAML."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items() if isinstance(key, str)}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value
