"""Modules on a real local test host: an agent over SSH (as root, or as `deploy` with become), and the check
that every module test makes: check mode predicts the first run and changes nothing, the first run changes,
the second does not, and a diff is there when asked for.

The fixtures ``host`` (root), ``host_as_deploy`` (``deploy`` through sudo) and ``scratch`` come from the suite's
plugin (``tests/plugin/remote_hosts.py``); the helpers here are imported by the tests that use them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import testinfra

from runner.connection import BecomeSettings, ConnectionSettings, HostSession
from runner.executor.module_call import ModuleCall, execute
from runner.module_index import ModuleIndex
from runner.testenv import TestEnv


class RemoteHost:
    """host1 of the session's test env; ``run`` returns the module's result as the executor sees it."""

    def __init__(self, env: TestEnv, *, user: str = "root", become: BecomeSettings | None = None):
        host = env.hosts()[0]
        self.name = host.name
        self.address = host.address
        self.become = become
        variables = {"ansible_host": host.address, "ansible_user": user,
                     "ansible_ssh_private_key_file": str(env.private_key),
                     "provisioning_ssh_known_hosts_file": str(env.known_hosts),
                     "ansible_python_interpreter": "/usr/bin/python3"}
        self.index = ModuleIndex()
        self.session = HostSession(ConnectionSettings.from_host_vars(host.name, variables), self.index)
        self.loop = asyncio.new_event_loop()

    def run(self, module: str, args: dict[str, Any] | None = None, *, check: bool = False, diff: bool = False,
            search_paths: list[Path] | None = None, environment: dict[str, Any] | None = None,
            task_vars: dict[str, Any] | None = None) -> dict[str, Any]:
        call = ModuleCall(module, dict(args or {}), check=check, diff=diff, become=self.become,
                          environment=environment, search_paths=list(search_paths or []), task_vars=task_vars or {})
        return self.loop.run_until_complete(execute(self.session, self.index, call))

    def shell(self, command: str) -> str:
        """Run a shell command as root on the host (for test set-up), returning stdout; fails the test on rc != 0."""
        result = self.loop.run_until_complete(self.session.raw(command, become=self.become))
        assert result.rc == 0, result.stderr.decode()
        return result.stdout.decode()

    def close(self) -> None:
        self.loop.run_until_complete(self.session.close())
        self.loop.close()


def infra_for(env: TestEnv, name: str | None = None) -> Any:
    """A testinfra host for host1 of ``env`` (or the host called ``name``), reached with the system ssh, to check
    state independently."""
    host = next(host for host in env.hosts() if host.name == name) if name else env.hosts()[0]
    return testinfra.get_host(
        f"ssh://root@{host.address}",
        ssh_identity_file=str(env.private_key),
        ssh_extra_args=f"-o UserKnownHostsFile={env.known_hosts} -o StrictHostKeyChecking=yes")


def converge(host: RemoteHost, module: str, args: dict[str, Any], *, diff: bool = True,
             state: Callable[[], Any] | None = None, settle: Callable[[], None] | None = None,
             **options: Any) -> dict[str, Any]:
    """Run ``module`` three times and assert the module contract; return the first real run's result.

    ``state`` reads the host's state independently (e.g. through testinfra): it must not change in check mode.
    ``settle`` waits, after the first real run, for what it started in the background to be there.
    """
    before = state() if state else None
    predicted = host.run(module, args, check=True, diff=diff, **options)
    assert not predicted.get("failed"), predicted
    assert predicted.get("changed") is True, f"check mode did not predict a change: {predicted}"
    if state:
        assert state() == before, "check mode changed the host"
    first = host.run(module, args, diff=diff, **options)
    assert not first.get("failed"), first
    assert first.get("changed") is True, first
    if diff:
        assert first.get("diff"), f"no diff returned: {first}"
    if settle:
        settle()
    second = host.run(module, args, diff=diff, **options)
    assert not second.get("failed"), second
    assert second.get("changed") is False, f"second run was not idempotent: {second}"
    again = host.run(module, args, check=True, diff=diff, **options)
    assert again.get("changed") is False, f"check mode after convergence predicts a change: {again}"
    return first
