"""sysctl's file editing: values normalised as Ansible does, one entry per key, comments kept."""

from __future__ import annotations

from modules.sysctl import edit_lines, line_key, normalize_value


def test_values_normalised() -> None:
    assert [normalize_value(v) for v in ("yes", "False", " 4096\t87380  6291456 ", "7")] == [
        "1", "0", "4096 87380 6291456", "7"]


def test_line_keys() -> None:
    assert line_key("net.ipv4.ip_forward = 1") == "net.ipv4.ip_forward"
    assert line_key("-kernel.panic=3") == "kernel.panic"
    assert line_key("net/ipv4/ip_forward=1") == "net.ipv4.ip_forward"
    assert line_key("# vm.swappiness = 1") is None and line_key("; x=1") is None


def test_first_entry_replaced_duplicates_dropped() -> None:
    lines = ["# tuning", "vm.swappiness = 60", "kernel.panic=3", "vm.swappiness=61"]
    assert edit_lines(lines, "vm.swappiness", "7", "present") == ["# tuning", "vm.swappiness=7", "kernel.panic=3"]
    assert edit_lines(["vm.swappiness = 7"], "vm.swappiness", "7", "present") == ["vm.swappiness = 7"]
    assert edit_lines(lines, "vm.swappiness", None, "absent") == ["# tuning", "kernel.panic=3"]
    assert edit_lines([], "a.b", "1", "present") == ["a.b=1"]
