"""``hash_behaviour = merge`` in the inventory (runner/inventory): a mapping given by two sources, or by a group
and a host, merges instead of the later one replacing it."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.inventory import load_inventory
from tests.unit.inventory.files import write_tree

FIRST = "all:\n  hosts:\n    h1: {h: {one: 1, both: 1}}\n  vars: {g: {one: 1, both: 1}}\n"
SECOND = "all:\n  hosts:\n    h1: {h: {two: 2, both: 2}}\n  vars: {g: {two: 2, both: 2}}\n"


@pytest.mark.parametrize(("merge", "host", "group"), [
    (False, {"two": 2, "both": 2}, {"two": 2, "both": 2}),
    (True, {"one": 1, "two": 2, "both": 2}, {"one": 1, "two": 2, "both": 2}),
])
def test_two_sources(tmp_path: Path, merge: bool, host: dict[str, int], group: dict[str, int]) -> None:
    write_tree(tmp_path, {"first.yml": FIRST, "second.yml": SECOND})
    inventory = load_inventory([tmp_path / "first.yml", tmp_path / "second.yml"], hash_merge=merge)
    variables = inventory.host_vars("h1")
    assert variables["h"] == host and variables["g"] == group
