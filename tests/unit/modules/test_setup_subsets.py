"""setup's pure parts: which collectors a gather_subset selects, filters, address arithmetic."""

from __future__ import annotations

import pytest

from modules import setup
from modules._utils import Module, ModuleFailure

MODULE = Module({})
MINIMAL = set(setup.GROUPS["min"])
EVERYTHING = set(setup.COLLECTORS)


def select(*subsets: str) -> set[str]:
    return set(setup.select_collectors(MODULE, list(subsets)))


def test_all_is_everything() -> None:
    assert select("all") == EVERYTHING


def test_only_exclusions_start_from_all() -> None:
    assert select("!hardware") == EVERYTHING - set(setup.GROUPS["hardware"])
    assert select("!facter", "!ohai") == EVERYTHING


def test_not_all_keeps_min_and_what_is_named() -> None:
    assert select("!all") == MINIMAL
    assert select("!all", "network") == MINIMAL | {"interfaces"}
    assert select("network", "!all") == MINIMAL | {"interfaces"}


def test_min_goes_only_when_excluded() -> None:
    assert select("min") == MINIMAL
    assert select("!all", "!min") == set()
    assert select("!all", "!min", "memory") == {"memory"}


def test_unknown_subsets() -> None:
    with pytest.raises(ModuleFailure, match="Bad subset 'hardwar'"):
        select("hardwar")
    assert select("!nothing-like-this") == EVERYTHING


def test_filter_matches_with_or_without_prefix() -> None:
    facts = {"distribution": "Debian", "distribution_version": "12", "memtotal_mb": 1, "hostname": "h"}
    assert setup.keep_matching(facts, ["ansible_distribution*"]) == {"distribution": "Debian",
                                                                     "distribution_version": "12"}
    assert setup.keep_matching(facts, ["mem*", "hostname"]) == {"memtotal_mb": 1, "hostname": "h"}
    assert setup.keep_matching(facts, []) == facts


def test_ipv4_entry_arithmetic() -> None:
    assert setup._ipv4_entry("192.0.2.7", 24, "192.0.2.255") == {
        "address": "192.0.2.7", "broadcast": "192.0.2.255", "netmask": "255.255.255.0", "network": "192.0.2.0",
        "prefix": "24"}
    assert setup._ipv4_entry("10.1.2.3", 32)["broadcast"] == ""
    assert setup._broadcast("10.1.2.3", 8) == "10.255.255.255" and setup._broadcast("10.1.2.3", 32) is None


def test_release_name() -> None:
    assert setup._release_name({"VERSION_CODENAME": "bookworm"}) == "bookworm"
    assert setup._release_name({"VERSION": "9.3 (Blue Onyx)"}) == "Blue Onyx"
    assert setup._release_name({}) == "NA"


def test_distribution_families() -> None:
    expected = {"debian": "Debian", "ubuntu": "Debian", "rocky": "RedHat", "amzn": "RedHat", "alpine": "Alpine",
                "opensuse-leap": "Suse", "arch": "Archlinux"}
    assert {ident: setup.FAMILY_OF[setup.DISTRIBUTION_NAMES[ident]] for ident in expected} == expected


class FakeSystemctl(Module):
    """A module whose systemctl --version answers as systemd 252 does."""

    def get_bin_path(self, name, required=False, opt_dirs=None):  # type: ignore[no-untyped-def,override]
        return "/usr/bin/systemctl" if name == "systemctl" else None

    def run_command(self, args, **_):  # type: ignore[no-untyped-def,override]
        return 0, "systemd 252 (252.38-1~deb12u1)\n+PAM +AUDIT -APPARMOR\n", ""


def test_systemd_facts_where_systemd_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # ansible-core's systemd collector: gathered with all (not in min), only where systemd has booted the host
    assert "systemd" in EVERYTHING and "systemd" not in MINIMAL
    monkeypatch.setattr(setup.os.path, "exists", lambda path: path == "/run/systemd/system/")
    assert setup.systemd_facts(FakeSystemctl({})) == {"systemd": {"features": "+PAM +AUDIT -APPARMOR", "version": 252}}
    monkeypatch.setattr(setup.os.path, "exists", lambda path: False)
    assert setup.systemd_facts(FakeSystemctl({})) == {}
