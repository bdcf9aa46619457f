"""service on a test host without systemd: memcached (a real Debian daemon with an init script), installed with
apt over a configuration written first, bound to the host's own address, driven through its init script."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for

SERVICE = "memcached"
PORT = 11211


@pytest.fixture(scope="module")
def memcached(host: RemoteHost) -> Iterator[str]:
    """memcached installed on host1 with a config that binds it to the host's address; the address."""
    config = f"# written by the service test\n-m 16\n-p {PORT}\n-u memcache\n-l {host.address}\n-U 0\n"
    host.shell(f"printf '%s' '{config}' > /etc/memcached.conf")
    installed = host.run("apt", {"name": SERVICE, "install_recommends": False})
    assert not installed.get("failed"), installed
    yield host.address
    host.run("service", {"name": SERVICE, "state": "stopped"})
    host.run("apt", {"name": SERVICE, "state": "absent", "purge": True})


def test_apt_kept_the_existing_config_and_policy_held_the_daemon_back(host: RemoteHost, memcached: str,
                                                                      testenv) -> None:
    infra = infra_for(testenv)
    assert infra.package(SERVICE).is_installed
    assert f"-l {memcached}" in infra.file("/etc/memcached.conf").content_string
    assert not infra.service(SERVICE).is_running


def test_start_stop_restart(host: RemoteHost, memcached: str, testenv) -> None:
    infra = infra_for(testenv)
    listening = infra.socket(f"tcp://{memcached}:{PORT}")
    started = converge(host, "service", {"name": SERVICE, "state": "started"},
                       state=lambda: infra.service(SERVICE).is_running)
    assert started["diff"]["after"]["state"] == "started"
    assert infra.service(SERVICE).is_running and listening.is_listening

    pid_before = infra.check_output("pidof memcached")
    restarted = host.run("service", {"name": SERVICE, "state": "restarted", "sleep": 1})
    assert restarted["changed"] is True and not restarted.get("failed"), restarted
    # As ansible-core's service: the state the service is in afterwards, and a diff only in diff mode.
    assert restarted["state"] == "started" and "diff" not in restarted, restarted
    predicted = host.run("service", {"name": SERVICE, "state": "restarted"}, check=True)
    assert (predicted["changed"], predicted["msg"], "state" in predicted) == (True, "service state changed", False)
    assert infra.service(SERVICE).is_running and infra.check_output("pidof memcached") != pid_before

    converge(host, "service", {"name": SERVICE, "state": "stopped"},
             state=lambda: infra.service(SERVICE).is_running)
    assert not infra.service(SERVICE).is_running and not listening.is_listening


def test_pattern_decides_whether_it_runs(host: RemoteHost, memcached: str, testenv) -> None:
    infra = infra_for(testenv)
    # The previous test stopped memcached; its init script returns before the old process has ended, and a start
    # meanwhile would find it (by its pid file) still there, or the port still taken: start from a host where it
    # is really gone.
    listening = infra.socket(f"tcp://{memcached}:{PORT}")
    deadline = time.monotonic() + 10
    while (listening.is_listening or infra.run("pidof memcached").rc == 0) and time.monotonic() < deadline:
        time.sleep(0.1)
    args = {"name": SERVICE, "state": "started", "pattern": f"-l {memcached}"}

    def daemon_started() -> None:
        # The init script returns once its wrapper has forked, before memcached itself has exec'd with the command
        # line the pattern matches: a busy host can be asked again before that.
        deadline = time.monotonic() + 10
        while infra.run(f"pgrep -f -- '-l {memcached}'").rc != 0 and time.monotonic() < deadline:
            time.sleep(0.1)

    converge(host, "service", args, state=lambda: infra.service(SERVICE).is_running, settle=daemon_started)
    assert host.run("service", {**args, "state": "stopped"})["changed"] is True
    assert not infra.service(SERVICE).is_running


def test_enable_and_disable_at_boot(host: RemoteHost, memcached: str, testenv) -> None:
    infra = infra_for(testenv)
    converge(host, "service", {"name": SERVICE, "enabled": False}, state=lambda: infra.service(SERVICE).is_enabled)
    assert not infra.service(SERVICE).is_enabled
    enabled = converge(host, "service", {"name": SERVICE, "enabled": True},
                       state=lambda: infra.service(SERVICE).is_enabled)
    assert enabled["diff"] == {"before": {"name": SERVICE, "enabled": False},
                               "after": {"name": SERVICE, "enabled": True}}
    assert infra.service(SERVICE).is_enabled


def test_unknown_service_and_systemd_without_systemd(host: RemoteHost) -> None:
    missing = host.run("service", {"name": "no-such-service", "state": "started"})
    assert missing.get("failed") and "no init script /etc/init.d/no-such-service" in missing["msg"], missing
    systemd = host.run("systemd", {"name": SERVICE, "state": "started"})
    assert systemd.get("failed") and "systemd is not running on this host" in systemd["msg"], systemd
