"""dnf, dnf5 and rpm_key on a Debian test host: their arguments are checked like any module's, and a run fails
with the message ansible-core 2.19 gives on the same host (each checked by running ansible-core against it), so a
role that branches on the OS family loads and runs. package dispatches to them by the manager asked for."""

from __future__ import annotations

import pytest

from tests.support.remote_harness import RemoteHost

NO_DNF_BINDINGS = ("Could not import the dnf python module using /usr/bin/python3 (3.")
NO_DNF_BINDINGS_END = ("Please install `python3-dnf` package or ensure you have specified the correct "
                       "ansible_python_interpreter. (attempted ['/usr/libexec/platform-python', '/usr/bin/python3', "
                       "'/usr/bin/python'])")
NO_BACKEND = "Could not detect which major revision of dnf is in use, which is required to determine module backend."
NO_RPM = 'Failed to find required executable "rpm" in paths: '


@pytest.mark.parametrize("module", ["dnf", "package"])
def test_dnf_backend_chosen_by_the_hosts_manager(host: RemoteHost, module: str) -> None:
    args = {"name": "httpd", "state": "present"} if module == "dnf" else {"name": "httpd", "state": "present",
                                                                          "use": "yum"}
    result = host.run(module, args, check=True)
    assert result.get("failed") and result["msg"].startswith(NO_BACKEND), result
    assert result["ansible_facts"] == {"pkg_mgr": "apt"}


def test_dnf4_without_bindings(host: RemoteHost) -> None:
    # name defaults to [], which satisfies name/list/update_cache being required, in ansible-core too
    result = host.run("dnf", {"state": "present", "use_backend": "dnf4"})
    assert result.get("failed") and result["results"] == [], result
    assert result["msg"].startswith(NO_DNF_BINDINGS) and result["msg"].endswith(NO_DNF_BINDINGS_END), result
    through_package = host.run("package", {"name": "httpd", "state": "latest", "use": "dnf"})
    assert through_package["msg"].endswith(NO_DNF_BINDINGS_END), through_package


@pytest.mark.parametrize("module", ["dnf5", "dnf"])
def test_dnf5_without_dnf(host: RemoteHost, module: str) -> None:
    args = {"name": ["httpd"]} if module == "dnf5" else {"name": ["httpd"], "use_backend": "dnf5"}
    result = host.run(module, args)
    assert result.get("failed"), result
    assert (result["msg"], result["cmd"], result["rc"]) == ("Error executing command.",
                                                           "dnf install -y python3-libdnf5", 2)


def test_rpm_key_without_rpm(host: RemoteHost) -> None:
    result = host.run("rpm_key", {"key": "/tmp/RPM-GPG-KEY", "fingerprint": "AB CD"})
    assert result.get("failed") and result["msg"].startswith(NO_RPM), result
    assert result["msg"].endswith(":/usr/sbin:/usr/bin:/sbin:/bin"), result


@pytest.mark.parametrize(("module", "args", "message"), [
    ("dnf", {"name": "x", "list": "installed"}, "mutually exclusive"),
    ("dnf", {"name": "x", "state": "bogus"}, "value of state must be one of"),
    ("dnf5", {"name": "x", "best": True, "nobest": True}, "mutually exclusive"),
    ("dnf", {"name": "x", "use_backend": "zypper"}, "use_backend"),
    ("rpm_key", {"state": "absent"}, "missing required arguments: key"),
])
def test_arguments_checked(host: RemoteHost, module: str, args: dict, message: str) -> None:
    result = host.run(module, args)
    assert result.get("failed") and message in result["msg"], result
