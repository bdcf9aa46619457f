"""pip's requirement reading: names, specifiers and versions compared as pip would for ordinary releases."""

from __future__ import annotations

import pytest

from modules.pip import canonical_name, freeze_diff, parse_freeze, parse_requirement, satisfies, version_key


def test_requirements() -> None:
    assert parse_requirement("Six") == ("six", [])
    assert parse_requirement("Django[bcrypt] >=3.2, <4") == ("django", [(">=", "3.2"), ("<", "4")])
    assert parse_requirement("git+https://example.test/x.git") is None
    assert parse_requirement("./local/pkg") is None
    assert canonical_name("Foo_Bar.baz") == "foo-bar-baz"


@pytest.mark.parametrize(("installed", "clauses", "expected"), [
    ("1.16.0", [("==", "1.16")], True),
    ("1.10.0", [(">", "1.9")], True),
    ("1.0rc1", [(">=", "1.0")], False),
    ("1.0.post1", [(">", "1.0")], True),
    ("2.3.1", [("==", "2.3.*")], True),
    ("2.4.0", [("!=", "2.3.*")], True),
    ("1.4.5", [("~=", "1.4.2")], True),
    ("1.5.0", [("~=", "1.4.2")], False),
    ("1.15.0", [(">=", "1.10"), ("<", "2")], True),
])
def test_satisfies(installed: str, clauses: list, expected: bool) -> None:
    assert satisfies(installed, clauses) is expected


def test_version_keys_order() -> None:
    assert version_key("1.9") < version_key("1.10") < version_key("2.0a1") < version_key("2.0") == version_key("2")


def test_freeze_and_its_diff() -> None:
    before = parse_freeze("six==1.15.0\nToml==0.10.2\n")
    after = parse_freeze("six==1.16.0\ntoml==0.10.2\nidna==3.7\n")
    assert freeze_diff(before, after) == {"before": "six==1.15.0\n", "after": "idna==3.7\nsix==1.16.0\n"}
