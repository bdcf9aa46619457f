"""Host ranges and ports as inventory sources write them."""

from __future__ import annotations

import re

import pytest

from runner.errors import ParseError, SourcePosition
from runner.inventory.hostnames import expand_host_pattern, expand_ranges, split_port


def test_numeric_range_keeps_zero_padding() -> None:
    assert expand_ranges("web[01:03]") == ["web01", "web02", "web03"]


def test_numeric_range_without_padding_and_with_suffix() -> None:
    assert expand_ranges("node[8:10].example.com") == ["node8.example.com", "node9.example.com",
                                                      "node10.example.com"]


def test_range_with_step() -> None:
    assert expand_ranges("web[01:09:4]") == ["web01", "web05", "web09"]


def test_alphabetic_range() -> None:
    assert expand_ranges("db-[a:c]") == ["db-a", "db-b", "db-c"]


def test_several_ranges_multiply_in_order() -> None:
    assert expand_ranges("r[1:2]n[a:b]") == ["r1na", "r1nb", "r2na", "r2nb"]


def test_missing_begin_means_zero() -> None:
    assert expand_ranges("h[:2]") == ["h0", "h1", "h2"]


def test_port_after_a_range() -> None:
    assert expand_host_pattern("web[1:2]:2222") == (["web1", "web2"], 2222)


def test_ranges_can_be_turned_off_for_host_lists() -> None:
    assert expand_host_pattern("web[1:2]", ranges=False) == (["web[1:2]"], None)


@pytest.mark.parametrize(("pattern", "expected"), [
    ("host", ("host", None)),
    ("host:22", ("host", 22)),
    ("10.0.0.1:2200", ("10.0.0.1", 2200)),
    ("::1", ("::1", None)),
    ("fe80::1:2", ("fe80::1:2", None)),
    ("[fe80::1]:2222", ("fe80::1", 2222)),
    ("[::1]", ("::1", None)),
])
def test_split_port(pattern: str, expected: tuple[str, int | None]) -> None:
    assert split_port(pattern) == expected


@pytest.mark.parametrize(("pattern", "message"), [
    ("web[1:2:3:4]", "expected [begin:end] or [begin:end:step]"),
    ("web[1]", "expected [begin:end] or [begin:end:step]"),
    ("web[1:]", "the end is missing"),
    ("web[01:100]", "same width"),
    ("web[5:1]", "begin is greater than end"),
    ("web[c:a]", "begin comes after end"),
    ("web[1:b]", "both numbers or both letters"),
    ("web[1:3:0]", "step must be a positive integer"),
    ("web[1:3", "missing ']'"),
])
def test_bad_ranges_name_the_problem_and_the_place(pattern: str, message: str) -> None:
    position = SourcePosition("hosts", 4, 1)
    with pytest.raises(ParseError, match=re.escape(message)) as caught:
        expand_ranges(pattern, position)
    assert caught.value.position == position


@pytest.mark.parametrize(("pattern", "message"), [
    ("host:", "trailing ':' is reserved for a port"),
    ("host:ssh", "expected a port number"),
    (":22", "the name before ':' is empty"),
])
def test_bad_ports(pattern: str, message: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)):
        split_port(pattern)
