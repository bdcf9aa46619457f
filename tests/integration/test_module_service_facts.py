"""service_facts on a test host (SysV init, no systemd): the init scripts' states as service --status-all gives
them, the same facts ansible-core returns there; a script of the test's own seen running, then stopped."""

from __future__ import annotations

from tests.integration.init_script import SERVICE, service
from tests.support.remote_harness import RemoteHost

__all__ = ["service"]  # the fixture, used by name


def test_sysv_services_and_their_states(host: RemoteHost, service: None) -> None:
    stopped = host.run("service_facts", {}, check=True)
    assert stopped["changed"] is False and not stopped.get("failed"), stopped
    services = stopped["ansible_facts"]["services"]
    assert services[SERVICE] == {"name": SERVICE, "state": "stopped", "source": "sysv"}
    assert services["cron"]["source"] == "sysv"
    assert "hwclock.sh" not in services  # no status action: left out, as service --status-all marks it [ ? ]
    host.shell(f"/etc/init.d/{SERVICE} start")
    running = host.run("service_facts", {})
    assert running["ansible_facts"]["services"][SERVICE]["state"] == "running"
