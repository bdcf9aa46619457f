"""systemd_service on a test host: the session's hosts run no systemd (a PID namespace each, a plain init), where it
is the systemd module under its ansible-core name, refusing clearly to act; on a host of its own that boots
systemd, service and systemd drive a unit with ansible-core's results."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from runner.testenv import TestEnv, unavailable_reason
from tests.support.remote_harness import RemoteHost, converge


@pytest.fixture(scope="module")
def systemd_host() -> Iterator[RemoteHost]:
    """host1 of an env of its own whose host boots systemd (cron is installed on the machine, so in the host)."""
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="pytest-systemd-units", count=1, base_address=40, systemd=True)
    env.up()
    remote = RemoteHost(env)
    try:
        yield remote
    finally:
        remote.close()
        env.down()


def test_refuses_without_systemd_under_both_names(host: RemoteHost) -> None:
    for name in ("systemd_service", "ansible.builtin.systemd_service", "systemd"):
        result = host.run(name, {"name": "cron", "state": "started"})
        assert result.get("failed") and "systemd is not running on this host" in result["msg"], result


def test_arguments_checked_before_running(host: RemoteHost) -> None:
    result = host.run("systemd_service", {"unit": "cron", "state": "running"})
    assert result.get("failed") and "state" in result["msg"], result


@pytest.mark.hosts
def test_service_drives_a_unit_with_ansible_cores_results(systemd_host: RemoteHost) -> None:
    started = converge(systemd_host, "service", {"name": "cron", "state": "started"})
    assert started["state"] == "started" and started["status"]["ActiveState"] == "inactive"  # as it was before
    restarted = systemd_host.run("service", {"name": "cron", "state": "restarted"})
    # the state it is in afterwards, and no diff outside diff mode, as ansible-core's systemd module
    assert (restarted["changed"], restarted["state"], "diff" in restarted) == (True, "started", False), restarted
    stopped = systemd_host.run("systemd", {"name": "cron", "state": "stopped"})
    assert (stopped["changed"], stopped["state"], stopped["status"]["ActiveState"]) == (True, "stopped", "active")
    again = systemd_host.run("systemd_service", {"name": "cron", "state": "stopped"})
    assert (again["changed"], again["status"]["ActiveState"]) == (False, "inactive"), again
