"""``hash_behaviour = merge`` (runner/util/hash_merge.py): mappings merge recursively, the higher level's keys
winning; anything else replaces."""

from __future__ import annotations

from runner.util.hash_merge import merge_into, merge_values


def test_merge_values_is_recursive_and_higher_wins() -> None:
    lower = {"a": 1, "deep": {"x": 1, "y": 1}, "list": [1]}
    higher = {"b": 2, "deep": {"y": 2}, "list": [2]}
    assert merge_values(lower, higher) == {"a": 1, "b": 2, "deep": {"x": 1, "y": 2}, "list": [2]}
    assert merge_values({"a": 1}, "text") == "text"


def test_merge_into_replaces_unless_merging() -> None:
    replaced = {"h": {"a": 1}}
    merge_into(replaced, {"h": {"b": 2}}, merge=False)
    merged = {"h": {"a": 1}}
    merge_into(merged, {"h": {"b": 2}}, merge=True)
    assert replaced == {"h": {"b": 2}} and merged == {"h": {"a": 1, "b": 2}}
