"""systemd_service on a test host: the test hosts run no systemd (a PID namespace each), so what can be checked
here is that it is the systemd module under its ansible-core name, refusing clearly to act where systemd does not
run. A converge test of units needs a host booted with systemd."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost


def test_refuses_without_systemd_under_both_names(host: RemoteHost) -> None:
    for name in ("systemd_service", "ansible.builtin.systemd_service", "systemd"):
        result = host.run(name, {"name": "cron", "state": "started"})
        assert result.get("failed") and "systemd is not running on this host" in result["msg"], result


def test_arguments_checked_before_running(host: RemoteHost) -> None:
    result = host.run("systemd_service", {"unit": "cron", "state": "running"})
    assert result.get("failed") and "state" in result["msg"], result
