"""apt on a real test host: the package lists, a small real Debian package installed and removed, a .deb file.

The tests run in file order (one module, so apt's lock is never contended between them).
"""

from __future__ import annotations

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for

PACKAGE = "hello"
DEB_PACKAGE = "sl"


def test_update_cache_is_unchanged_while_fresh(host: RemoteHost) -> None:
    host.shell("touch -d '3 days ago' /var/lib/apt/lists")
    first = converge(host, "apt", {"update_cache": True, "cache_valid_time": 86400})
    assert first["cache_updated"] is True
    fresh = host.run("apt", {"update_cache": True, "cache_valid_time": 86400})
    assert fresh["cache_updated"] is False and fresh["cache_update_time"] >= first["cache_update_time"]
    # A cache update alone answers ansible-core's three keys (no output, no diff outside diff mode).
    assert {key for key in fresh if not key.startswith("_")} - {"invocation"} == {
        "changed", "cache_updated", "cache_update_time"}, fresh


def test_install_a_package_then_remove_it_as_deploy_with_sudo(host_as_deploy: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    installed = converge(host_as_deploy, "apt", {"name": PACKAGE, "state": "present"},
                         state=lambda: infra.package(PACKAGE).is_installed)
    assert infra.package(PACKAGE).is_installed
    assert any(entry.startswith(PACKAGE) for entry in installed["diff"]["installed"])
    assert f"{PACKAGE} (" in installed["diff"]["after"]

    version = infra.package(PACKAGE).version
    pinned = host_as_deploy.run("apt", {"name": f"{PACKAGE}={version.split('-')[0]}*"})
    assert pinned["changed"] is False and not pinned.get("failed"), pinned
    latest = host_as_deploy.run("apt", {"name": PACKAGE, "state": "latest"}, check=True)
    assert latest["changed"] is False, latest

    removed = converge(host_as_deploy, "apt", {"name": PACKAGE, "state": "absent", "purge": True},
                       state=lambda: infra.package(PACKAGE).is_installed)
    assert not infra.package(PACKAGE).is_installed
    assert any(entry.startswith(PACKAGE) for entry in removed["diff"]["removed"])


def test_deb_file_on_the_host(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    host.shell(f"mkdir -p /tmp/apt-deb && cd /tmp/apt-deb && apt-get download -q {DEB_PACKAGE}")
    deb = host.shell("ls /tmp/apt-deb/*.deb").split()[0]
    try:
        converge(host, "apt", {"deb": deb}, state=lambda: infra.package(DEB_PACKAGE).is_installed)
        assert infra.package(DEB_PACKAGE).is_installed
    finally:
        host.run("apt", {"name": DEB_PACKAGE, "state": "absent", "purge": True})
        host.shell("rm -rf /tmp/apt-deb")
    assert not infra.package(DEB_PACKAGE).is_installed


def test_package_dispatches_to_apt_on_the_host(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    installed = converge(host, "package", {"name": DEB_PACKAGE, "state": "present"},
                         state=lambda: infra.package(DEB_PACKAGE).is_installed)
    assert installed["ansible_facts"] == {"pkg_mgr": "apt"} and infra.package(DEB_PACKAGE).is_installed
    converge(host, "package", {"name": DEB_PACKAGE, "state": "absent"},
             state=lambda: infra.package(DEB_PACKAGE).is_installed)
    assert not infra.package(DEB_PACKAGE).is_installed
    # yum goes to the dnf module (as ansible-core redirects it), which fails on a host without dnf as Ansible's does
    yum = host.run("package", {"name": DEB_PACKAGE, "state": "present", "use": "yum"})
    assert yum.get("failed") and "Could not detect which major revision of dnf is in use" in yum["msg"], yum
    other = host.run("package", {"name": DEB_PACKAGE, "state": "present", "use": "pacman"})
    assert other.get("failed") and "package manager 'pacman' is not supported" in other["msg"], other


def test_package_passes_the_other_arguments_to_the_managers_module(host: RemoteHost) -> None:
    # As ansible-core's package action: apt's own arguments work through package, another manager's fail in
    # apt's words, and package's own are still checked.
    passed = host.run("package", {"name": "coreutils", "state": "present", "update_cache": True,
                                  "cache_valid_time": 86400})
    assert not passed.get("failed") and passed["changed"] is False, passed
    foreign = host.run("package", {"name": "coreutils", "state": "present", "enablerepo": "epel"})
    assert foreign.get("failed") and foreign["msg"].startswith(
        "Unsupported parameters for (apt) module: enablerepo. Supported parameters include: "), foreign
    nameless = host.run("package", {"state": "present"})
    assert nameless.get("failed") and "missing required arguments: name" in nameless["msg"], nameless


@pytest.mark.parametrize(("args", "message"), [
    ({"name": "no-such-package-here"}, "no-such-package-here"),
    ({"name": "hello", "state": "latest", "deb": "/tmp/x.deb"}, "mutually exclusive"),
    ({"name": "hello=2*", "state": "latest"}, "inconsistent with state=latest"),
    ({"deb": "/tmp/no-such.deb"}, "deb: /tmp/no-such.deb does not exist"),
    ({"name": "hello", "state": "gone"}, "value of state must be one of"),
])
def test_clear_failures(host: RemoteHost, args: dict, message: str) -> None:
    result = host.run("apt", args)
    assert result.get("failed") and message in result["msg"], result
