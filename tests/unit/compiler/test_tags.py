"""TagFilter: which task tags --tags and --skip-tags select, as Ansible's evaluate_tags decides."""

from __future__ import annotations

import pytest

from runner.compiler.tags import TagFilter


@pytest.mark.parametrize(("only", "skip", "tags", "selected"), [
    ([], [], [], True),
    ([], [], ["web"], True),
    ([], [], ["never"], False),
    ([], [], ["never", "debug"], False),
    (["web"], [], ["web", "db"], True),
    (["web"], [], ["db"], False),
    (["web"], [], [], False),
    (["web"], [], ["always"], True),
    (["web"], ["always"], ["always"], False),
    (["debug"], [], ["never", "debug"], True),
    (["never"], [], ["never"], True),
    (["all"], [], ["never", "x"], False),
    (["tagged"], [], ["x"], True),
    (["tagged"], [], [], False),
    (["untagged"], [], [], True),
    (["untagged"], [], ["x"], False),
    ([], ["web"], ["web"], False),
    ([], ["web"], ["always", "web"], False),  # skipping a tag skips it even beside always
    ([], ["web"], ["always"], True),
    ([], ["tagged"], ["x"], False),
    ([], ["untagged"], [], False),
    ([], ["all"], ["x"], False),
])
def test_tag_selection(only: list[str], skip: list[str], tags: list[str], selected: bool) -> None:
    assert TagFilter.of(only, skip).selects(tags) is selected
