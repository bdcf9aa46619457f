"""sysvinit on a test host: a small init script of the test's own (a sleeping daemon with a pid file), started,
stopped, enabled in chosen runlevels, and run detached with daemonize; all of it removed afterwards."""

from __future__ import annotations

from tests.integration.init_script import SERVICE, service
from tests.support.remote_harness import RemoteHost, converge, infra_for

__all__ = ["service"]  # the fixture, used by name


def running(testenv) -> bool:
    return infra_for(testenv).run(f"/etc/init.d/{SERVICE} status").rc == 0


def links(testenv) -> str:
    return infra_for(testenv).check_output(f"ls /etc/rc?.d | grep -c '^S..{SERVICE}$' || true")


def test_started_and_stopped(host: RemoteHost, testenv, service: None) -> None:
    started = converge(host, "sysvinit", {"name": SERVICE, "state": "started"}, state=lambda: running(testenv))
    assert running(testenv)
    assert started["status"]["started"]["changed"] is True
    assert started["diff"] == {"before": {"name": SERVICE, "state": "stopped"},
                               "after": {"name": SERVICE, "state": "started"}}
    converge(host, "sysvinit", {"service": SERVICE, "state": "stopped"}, state=lambda: running(testenv))
    assert not running(testenv)


def test_daemonized_start(host: RemoteHost, testenv, service: None) -> None:
    converge(host, "sysvinit", {"name": SERVICE, "state": "started", "daemonize": True},
             state=lambda: running(testenv))
    assert running(testenv)
    restarted = host.run("sysvinit", {"name": SERVICE, "state": "restarted", "daemonize": True, "sleep": 0})
    assert restarted["changed"] and not restarted.get("failed"), restarted
    assert running(testenv)


def test_enabled_in_chosen_runlevels(host: RemoteHost, testenv, service: None) -> None:
    infra = infra_for(testenv)
    first = converge(host, "sysvinit", {"name": SERVICE, "enabled": True, "runlevels": ["3", "5"]},
                     state=lambda: links(testenv))
    assert first["status"]["enabled"] == {"changed": True, "runlevels": ["3", "5"]}
    assert infra.run(f"ls /etc/rc3.d/S??{SERVICE}").rc == 0 and infra.run(f"ls /etc/rc5.d/S??{SERVICE}").rc == 0
    converge(host, "sysvinit", {"name": SERVICE, "enabled": False, "runlevels": ["5"]}, state=lambda: links(testenv))
    assert infra.run(f"ls /etc/rc5.d/S??{SERVICE}").rc != 0 and infra.run(f"ls /etc/rc3.d/S??{SERVICE}").rc == 0


def test_missing_script_and_bad_runlevel(host: RemoteHost, service: None) -> None:
    missing = host.run("sysvinit", {"name": "provisioning-no-such-svc", "state": "started"})
    assert missing.get("failed") and "/etc/init.d/provisioning-no-such-svc" in missing["msg"], missing
    bad = host.run("sysvinit", {"name": SERVICE, "enabled": True, "runlevels": ["9"]})
    assert bad.get("failed") and "Illegal runlevel" in bad["msg"], bad
