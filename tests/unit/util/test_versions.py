"""Role references, versions and constraints as requirements and commands write them."""

from __future__ import annotations

import pytest

from runner.galaxy.reference import ReferenceSyntaxError, RoleRef, parse_reference
from runner.util.versions import ConstraintError, parse_constraint, sort_versions

TAGS = ["0.9.0", "0.9.4", "1.0.0", "1.2.0", "1.2.5", "1.3.0", "2.0.0", "2.1.0-rc.1", "latest", "1.2", "v3.0.0"]


@pytest.mark.parametrize(("constraint", "chosen"), [
    ("^1.2", "1.3.0"),
    ("~1.2", "1.2.5"),
    (">=1.0,<2", "1.3.0"),
    (">= 1.0 < 2", "1.3.0"),
    ("1.2.0", "1.2.0"),
    ("=1.2.0", "1.2.0"),
    ("1.2", "1.2.5"),
    ("1.x", "1.3.0"),
    ("^0.9", "0.9.4"),
    ("*", "2.0.0"),
    ("", "2.0.0"),
    ("latest", "2.0.0"),
    ("^1.2 || ^2", "2.0.0"),
    (">=2.1.0-rc.1", "2.1.0-rc.1"),
    (">3", None),
])
def test_the_highest_allowed_version_is_chosen(constraint: str, chosen: str | None) -> None:
    assert parse_constraint(constraint).best(TAGS) == chosen


def test_pre_releases_only_when_a_constraint_names_one() -> None:
    assert not parse_constraint("^2").allows("2.1.0-rc.1")
    assert parse_constraint("2.1.0-rc.1").allows("2.1.0-rc.1")


def test_only_semver_tags_are_versions_sorted_by_semver() -> None:
    assert sort_versions(TAGS) == ["0.9.0", "0.9.4", "1.0.0", "1.2.0", "1.2.5", "1.3.0", "2.0.0", "2.1.0-rc.1"]
    assert sort_versions(["1.10.0", "1.9.0", "1.2.0"]) == ["1.2.0", "1.9.0", "1.10.0"]


@pytest.mark.parametrize("text", ["banana", "1.0.0 - 2.0.0", ">>1", "^"])
def test_a_bad_constraint_says_what_was_expected(text: str) -> None:
    with pytest.raises(ConstraintError, match=r"is not a version constraint \(expected for instance 1.2.3, \^1.2"):
        parse_constraint(text)


@pytest.mark.parametrize(("text", "expected"), [
    ("oci://reg.example.com:5000/team/redis:1.2.0",
     RoleRef("reg.example.com:5000", "team/redis", "1.2.0")),
    ("oci://localhost/team/sub/redis:^1.2", RoleRef("localhost", "team/sub/redis", "^1.2")),
    ("redis", RoleRef("default.example.com", "provisioning-extensions/redis")),
    ("team/redis:>=1.0,<2", RoleRef("default.example.com", "team/redis", ">=1.0,<2")),
    ("127.0.0.1:5000/team/redis@sha256:" + "a" * 64,
     RoleRef("127.0.0.1:5000", "team/redis", None, "sha256:" + "a" * 64)),
])
def test_references_complete_with_the_configured_registry_and_namespace(text: str, expected: RoleRef) -> None:
    ref = parse_reference(text, registry="default.example.com", namespace="provisioning-extensions")
    assert ref == expected
    assert ref.name == expected.repository.rsplit("/", 1)[-1]


@pytest.mark.parametrize(("text", "message"), [
    ("team/redis", "names no registry and none is configured"),
    ("oci://reg.example.com/team/Redis:1.0.0", "'Redis' in 'oci://reg.example.com/team/Redis:1.0.0' is not a valid"),
    ("oci://reg.example.com/team/redis@sha256:abc", "is not a digest (expected sha256: and 64 hex digits)"),
])
def test_bad_references_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ReferenceSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_reference(text)


def test_a_reference_prints_as_written() -> None:
    ref = RoleRef("reg.example.com", "team/redis", "1.0.0", "sha256:" + "b" * 64)
    assert str(ref) == "oci://reg.example.com/team/redis:1.0.0@sha256:" + "b" * 64
    assert ref.source == "oci://reg.example.com/team/redis"


@pytest.mark.parametrize(("constraint", "allowed", "refused"), [
    ("^1.3", ["1.3.0", "1.3.9", "1.9.0"], ["1.2.9", "2.0.0"]),  # 1.x: minor and patch may move
    ("^1.x", ["1.0.0", "1.9.0"], ["0.9.0", "2.0.0"]),
    ("^0.3", ["0.3.0", "0.3.9"], ["0.2.9", "0.4.0", "1.0.0"]),  # 0.x: the minor is pinned
    ("^0.3.1", ["0.3.1", "0.3.9"], ["0.3.0", "0.4.0"]),
    ("^0.0.3", ["0.0.3"], ["0.0.4", "0.1.0"]),  # 0.0.x: the patch is pinned too
    ("^0.x", ["0.0.1", "0.9.0"], ["1.0.0"]),  # no minor given: anything below 1.0.0, as npm
    ("^0", ["0.0.1", "0.9.0"], ["1.0.0"]),
    ("^0.0", ["0.0.1", "0.0.9"], ["0.1.0"]),
])
def test_caret_pins_the_left_most_non_zero_part(constraint: str, allowed: list[str], refused: list[str]) -> None:
    # npm's and cargo's caret: ^0.3 is >=0.3.0,<0.4.0 while ^1.3 is >=1.3.0,<2.0.0 (docs/roles-oci.md).
    parsed = parse_constraint(constraint)
    assert [v for v in allowed if not parsed.allows(v)] == []
    assert [v for v in refused if parsed.allows(v)] == []


def test_caret_on_0_x_chooses_within_the_minor() -> None:
    tags = ["0.3.0", "0.3.7", "0.4.0", "1.3.0", "1.8.2", "2.0.0"]
    assert parse_constraint("^0.3").best(tags) == "0.3.7"
    assert parse_constraint("^1.3").best(tags) == "1.8.2"
