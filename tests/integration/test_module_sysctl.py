"""sysctl on a test host: the conf file edited atomically; values not applied, since the test hosts share the
machine's kernel settings (a container)."""

from __future__ import annotations

from pathlib import Path

from tests.support.remote_harness import RemoteHost, converge, infra_for

CONF = "/etc/sysctl.d/90-provisioning-test.conf"


def test_entry_written_replaced_removed_never_applied(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    machine_value = Path("/proc/sys/vm/swappiness").read_text()
    host.shell(f"printf '# tuning\\nvm.swappiness = 60\\nvm.swappiness=61\\n' > {CONF}")
    content = lambda: infra.file(CONF).content_string  # noqa: E731
    try:
        result = converge(host, "sysctl", {"name": "vm.swappiness", "value": "7", "sysctl_file": CONF,
                                           "sysctl_set": True}, state=content)
        assert content() == "# tuning\nvm.swappiness=7\n"
        assert any("not applied" in warning for warning in result["warnings"])
        assert Path("/proc/sys/vm/swappiness").read_text() == machine_value
        converge(host, "sysctl", {"name": "net.ipv4.ip_forward", "value": "yes", "sysctl_file": CONF},
                 state=content)
        assert content() == "# tuning\nvm.swappiness=7\nnet.ipv4.ip_forward=1\n"
        converge(host, "sysctl", {"name": "vm.swappiness", "state": "absent", "sysctl_file": CONF}, state=content)
        assert content() == "# tuning\nnet.ipv4.ip_forward=1\n"
    finally:
        host.shell(f"rm -f {CONF}")


def test_value_required_when_present(host: RemoteHost) -> None:
    result = host.run("sysctl", {"name": "vm.swappiness", "sysctl_file": CONF})
    assert result.get("failed") and "value" in result["msg"]
