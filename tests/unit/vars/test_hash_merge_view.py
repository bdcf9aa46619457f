"""A variable view under ``hash_behaviour = merge`` (runner/vars/layers.py): a mapping merges with the same
name's mappings at the levels below it."""

from __future__ import annotations

from runner.vars.layers import VariableView


def test_a_view_merges_a_mapping_with_the_levels_below_it() -> None:
    sources = ({"h": {"top": 1}}, {"other": 1}, {"h": {"middle": 1, "top": 0}}, {"h": {"bottom": 1}})
    assert VariableView(sources)["h"] == {"top": 1}
    assert VariableView(sources, merge=True)["h"] == {"top": 1, "middle": 1, "bottom": 1}
    assert VariableView(({"h": "text"}, {"h": {"a": 1}}), merge=True)["h"] == "text"
