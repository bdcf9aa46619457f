"""setup on a real (local) host: the facts Ansible's names promise, gather_subset and filter."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.local_host import LocalHost, assert_ok


@pytest.fixture(scope="module")
def host(local_host: LocalHost) -> LocalHost:
    """This file's modules run on the controller itself, over the local connection."""
    return local_host


ISSUE_FACTS = ["system", "os_family", "distribution", "distribution_version", "distribution_major_version",
               "distribution_release", "hostname", "fqdn", "python", "user_id", "default_ipv4", "processor_count",
               "processor_vcpus", "memtotal_mb", "pkg_mgr", "service_mgr", "env", "date_time"]


def facts_of(host: LocalHost, **args: object) -> dict:
    """The facts setup reports, by their names without the ``ansible_`` prefix it gives every fact but two (and
    ``discovered_interpreter_python``, which the first module on a host reports when its Python was discovered)."""
    result = host.run("setup", dict(args))
    assert_ok(result, changed=False)
    reported = result["ansible_facts"]
    assert not [name for name in reported if not name.startswith("ansible_")
                and name not in ("gather_subset", "module_setup", "discovered_interpreter_python")]
    return {name.removeprefix("ansible_"): value for name, value in reported.items()
            if name != "discovered_interpreter_python"}  # the discovery's report, not one of setup's facts


def expected_service_mgr() -> str:
    if os.path.isdir("/run/systemd/system"):
        return "systemd"
    return "sysvinit" if os.path.isdir("/etc/init.d") else "service"


def test_all_facts_describe_this_machine(host: LocalHost) -> None:
    facts = facts_of(host)
    assert not [name for name in ISSUE_FACTS if name not in facts]
    uname = os.uname()
    assert facts["system"] == uname.sysname and facts["kernel"] == uname.release
    assert facts["hostname"] == uname.nodename.split(".")[0] and facts["architecture"] == uname.machine
    assert facts["user_id"] == pwd.getpwuid(os.getuid()).pw_name and facts["user_uid"] == os.getuid()
    assert facts["processor_vcpus"] >= 1 and facts["processor_nproc"] == len(os.sched_getaffinity(0))
    assert 0 < facts["memfree_mb"] <= facts["memtotal_mb"]
    assert facts["service_mgr"] == expected_service_mgr()
    assert facts["pkg_mgr"] == ("apt" if os.path.exists("/usr/bin/apt-get") else facts["pkg_mgr"])
    assert "PATH" in facts["env"] and facts["gather_subset"] == ["all"] and facts["module_setup"] is True
    assert facts["selinux"]["status"] in ("disabled", "enabled")
    assert {"year", "epoch", "iso8601", "tz", "weekday"} <= set(facts["date_time"])


def test_python_facts_are_the_targets_interpreter(host: LocalHost) -> None:
    facts = facts_of(host, gather_subset=["!all"])
    python = facts["python"]
    assert python["type"] == "CPython" and os.path.exists(python["executable"])
    version = python["version"]
    interpreter = host.interpreter or sys.executable
    actual = subprocess.run([interpreter, "-c", "import sys; print('.'.join(map(str, sys.version_info[:3])))"],
                            capture_output=True, text=True, check=True).stdout.strip()
    assert facts["python_version"] == actual == f"{version['major']}.{version['minor']}.{version['micro']}"
    assert {"releaselevel", "serial"} <= set(version)


def test_distribution_matches_os_release(host: LocalHost) -> None:
    facts = facts_of(host, gather_subset=["distribution"])
    os_release = dict(line.split("=", 1) for line in Path("/etc/os-release").read_text().splitlines() if "=" in line)
    if os_release.get("ID") == "debian":
        assert facts["distribution"] == "Debian" and facts["os_family"] == "Debian"
        assert facts["distribution_version"] == Path("/etc/debian_version").read_text().strip()
        assert facts["distribution_release"] == os_release["VERSION_CODENAME"]
    assert facts["distribution_major_version"] == facts["distribution_version"].split(".")[0]


def test_network_facts(host: LocalHost) -> None:
    facts = facts_of(host, gather_subset=["!all", "network"])
    assert "lo" in facts["interfaces"] and facts["lo"]["ipv4"]["address"] == "127.0.0.1"
    assert "memtotal_mb" not in facts and "distribution" in facts  # min stays
    has_default = any(line.split()[1] == "00000000" for line in Path("/proc/net/route").read_text().splitlines()[1:])
    if has_default:
        default = facts["default_ipv4"]
        assert default["address"] in facts["all_ipv4_addresses"] and default["interface"] in facts["interfaces"]
        assert {"gateway", "netmask", "network", "prefix"} <= set(default)
    else:
        assert facts["default_ipv4"] == {}


def test_subset_exclusions(host: LocalHost) -> None:
    without_hardware = facts_of(host, gather_subset=["!hardware"])
    assert "memtotal_mb" not in without_hardware and "interfaces" in without_hardware
    minimal = facts_of(host, gather_subset=["min"])
    assert "interfaces" not in minimal and "memtotal_mb" not in minimal and "distribution" in minimal
    nothing = facts_of(host, gather_subset=["!all", "!min"])
    assert set(nothing) == {"gather_subset", "module_setup"}


def test_filter_with_or_without_prefix(host: LocalHost) -> None:
    prefixed = facts_of(host, filter=["ansible_distribution*"])
    assert {name for name in prefixed if name.startswith("distribution")} == {
        "distribution", "distribution_version", "distribution_major_version", "distribution_release"}
    assert set(prefixed) - {"gather_subset", "module_setup"} == {
        "distribution", "distribution_version", "distribution_major_version", "distribution_release"}
    bare = facts_of(host, filter=["memtotal_mb", "hostname"])
    assert set(bare) == {"memtotal_mb", "hostname", "gather_subset", "module_setup"}


def test_bad_subset_fails_and_check_mode_gathers(host: LocalHost) -> None:
    bad = host.run("setup", {"gather_subset": ["hardwar"]})
    assert bad["failed"] is True and "Bad subset 'hardwar'" in bad["msg"]
    checked = host.run("setup", {"filter": ["system"]}, check=True)
    assert_ok(checked, changed=False)
    assert checked["ansible_facts"]["ansible_system"] == os.uname().sysname


def test_local_facts_from_fact_path(host: LocalHost, tmp_path: Path) -> None:
    (tmp_path / "app.fact").write_text('{"version": 3}')
    (tmp_path / "ini.fact").write_text("[main]\nname = web\n")
    script = tmp_path / "script.fact"
    script.write_text(f"#!{sys.executable}\nprint('{{\"dynamic\": true}}')\n")
    script.chmod(0o755)
    facts = facts_of(host, gather_subset=["local"], fact_path=str(tmp_path), filter=["local"])
    assert facts["local"] == {"app": {"version": 3}, "ini": {"main": {"name": "web"}}, "script": {"dynamic": True}}


def test_an_ini_fact_with_a_bare_percent_is_an_error_text_with_a_warning(host: LocalHost, tmp_path: Path) -> None:
    (tmp_path / "bad.fact").write_text("[bad fact]\nvalue = 50% bad % fact\n")
    result = host.run("setup", {"gather_subset": ["local"], "fact_path": str(tmp_path), "filter": ["local"]})
    assert_ok(result, changed=False)
    bad = result["ansible_facts"]["ansible_local"]["bad"]
    assert bad.startswith(f"error loading facts as ini - please check content: {tmp_path}/bad.fact (")
    assert result["warnings"] == [bad]


def test_facts_that_cannot_be_read_are_error_texts_with_warnings(host: LocalHost, tmp_path: Path) -> None:
    (tmp_path / "dead.fact").symlink_to(tmp_path / "missing")
    failing = tmp_path / "failing.fact"
    failing.write_text("#!/bin/sh\necho oops >&2\nexit 3\n")
    failing.chmod(0o755)
    (tmp_path / ".hidden.fact").write_text('{"seen": true}')
    result = host.run("setup", {"gather_subset": ["local"], "fact_path": str(tmp_path), "filter": ["local"]})
    local = result["ansible_facts"]["ansible_local"]
    assert sorted(local) == ["dead", "failing"]
    assert local["dead"].startswith(f"Could not stat fact ({tmp_path}/dead.fact): ")
    assert local["failing"] == f"Failure executing fact script ({tmp_path}/failing.fact), rc: 3, err: oops\n"
    assert result["warnings"] == [local["dead"], local["failing"]]
