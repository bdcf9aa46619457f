"""Test hosts that boot systemd: where each gets its cgroup (read from the machine's mount table and own cgroup),
and asking for them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from runner.cli.testenv import cli
from runner.testenv import TestEnv, cgroups
from runner.testenv.cgroups import cgroup2_mount, host_cgroup, own_cgroup, remove_cgroup
from runner.testenv.errors import TestEnvError

HYBRID = """\
25 20 0:22 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755
26 25 0:23 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw
27 25 0:24 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,name=systemd
"""
UNIFIED = "30 20 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"


def test_the_cgroup2_hierarchy_of_a_hybrid_or_a_unified_machine() -> None:
    assert cgroup2_mount(HYBRID) == Path("/sys/fs/cgroup/unified")
    assert cgroup2_mount(UNIFIED) == Path("/sys/fs/cgroup")
    assert cgroup2_mount(HYBRID.splitlines()[2]) is None  # cgroup v1 alone


def test_own_cgroup_is_the_v2_line() -> None:
    assert own_cgroup("4:memory:/a/b\n0::/user.slice/session-1.scope\n") == "/user.slice/session-1.scope"
    assert own_cgroup("4:memory:/a/b\n") == "/"


def test_a_hosts_cgroup_is_below_the_starting_process_cgroup(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "mountinfo").write_text(UNIFIED)
    (tmp_path / "cgroup").write_text("0::/system.slice/ci.service\n")
    monkeypatch.setattr(cgroups, "MOUNTINFO", tmp_path / "mountinfo")
    monkeypatch.setattr(cgroups, "OWN_CGROUP", tmp_path / "cgroup")
    assert host_cgroup("compat150", "testhost1") == Path(
        "/sys/fs/cgroup/system.slice/ci.service/provisioning-testenv.compat150.testhost1"
    )
    (tmp_path / "mountinfo").write_text(HYBRID.splitlines()[2])
    with pytest.raises(TestEnvError, match="need a cgroup v2 hierarchy"):
        host_cgroup("compat150", "testhost1")


def test_removing_takes_the_cgroups_systemd_made_below_deepest_first(tmp_path: Path) -> None:
    host = tmp_path / "provisioning-testenv.e.h"
    (host / "system.slice" / "cron.service").mkdir(parents=True)
    (host / "init.scope").mkdir()
    remove_cgroup(host)
    assert not host.exists()
    remove_cgroup(host)  # gone already: nothing to do


def test_the_cli_starts_hosts_that_boot_systemd_on_request(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    started: list[str] = []
    monkeypatch.setattr(TestEnv, "up", lambda env: started.append(env.init) or [])
    for flags, init in (([], "plain"), (["--systemd"], "systemd")):
        result = CliRunner().invoke(cli, ["up", "1", "--state-root", str(tmp_path), *flags])
        assert result.exit_code == 0, result.output
        assert started.pop() == init
