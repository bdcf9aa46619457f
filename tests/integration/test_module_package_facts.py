"""package_facts on a test host: the installed Debian packages as dpkg knows them, the same in check mode."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost, infra_for


def test_installed_packages_as_facts(host: RemoteHost, testenv) -> None:
    result = host.run("package_facts", {})
    assert not result.get("failed") and result["changed"] is False, result
    packages = result["ansible_facts"]["packages"]
    less = infra_for(testenv).package("less")
    assert packages["less"] == [{"name": "less", "version": less.version, "arch": "amd64", "category": "text",
                                 "origin": "", "source": "apt"}]
    assert packages["python3"][0]["source"] == "apt"
    assert host.run("package_facts", {"manager": "apt"}, check=True)["ansible_facts"] == result["ansible_facts"]


def test_managers_by_name(host: RemoteHost) -> None:
    all_of_them = host.run("package_facts", {"manager": ["auto"], "strategy": "all"})
    assert "less" in all_of_them["ansible_facts"]["packages"], all_of_them
    unknown = host.run("package_facts", {"manager": "brew"})
    assert unknown.get("failed") and "Unsupported package managers requested: brew" in unknown["msg"], unknown
    rpm_only = host.run("package_facts", {"manager": "dnf"})
    assert rpm_only.get("failed") and "Could not detect a supported package manager" in rpm_only["msg"], rpm_only
