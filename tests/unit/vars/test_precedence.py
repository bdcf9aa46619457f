"""Variable layers: Ansible's precedence order, level by level, without copies."""

from __future__ import annotations

import itertools

import pytest

from runner.templating import ANSIBLE_MANAGED, Templar
from runner.vars import MagicVariables, Precedence, VariableLayers, precedence_of

# Every distinct level, lowest first (aliases such as INVENTORY and REGISTERED share a value with another level).
LEVELS = sorted({level.value: level for level in Precedence}.values())


def test_the_order_is_ansibles_documented_order() -> None:
    assert [level.name for level in LEVELS] == [
        "ROLE_DEFAULTS",
        "INVENTORY_FILE_GROUP_VARS",
        "INVENTORY_GROUP_VARS_ALL",
        "PLAYBOOK_GROUP_VARS_ALL",
        "INVENTORY_GROUP_VARS",
        "PLAYBOOK_GROUP_VARS",
        "INVENTORY_FILE_HOST_VARS",
        "INVENTORY_HOST_VARS",
        "PLAYBOOK_HOST_VARS",
        "FACTS",
        "PLAY_VARS",
        "PLAY_VARS_PROMPT",
        "PLAY_VARS_FILES",
        "ROLE_VARS",
        "BLOCK_VARS",
        "TASK_VARS",
        "INCLUDE_VARS",
        "SET_FACT",
        "ROLE_PARAMS",
        "INCLUDE_PARAMS",
        "EXTRA_VARS",
        "LOOP",
    ]
    assert Precedence.INVENTORY is Precedence.INVENTORY_HOST_VARS
    assert Precedence.REGISTERED is Precedence.SET_FACT


@pytest.mark.parametrize(("lower", "higher"), list(itertools.pairwise(LEVELS)),
                         ids=lambda level: level.name.lower())
def test_each_level_beats_the_one_below_whatever_the_order_they_were_added(lower: Precedence,
                                                                           higher: Precedence) -> None:
    base = VariableLayers()
    low_first = base.with_layer(lower, {"x": lower.name}).with_layer(higher, {"x": higher.name})
    high_first = base.with_layer(higher, {"x": higher.name}).with_layer(lower, {"x": lower.name})
    assert low_first.as_mapping()["x"] == higher.name
    assert high_first.as_mapping()["x"] == higher.name
    assert high_first.level_of("x") == higher.name.lower()


def test_extra_vars_given_to_the_constructor_beat_every_lower_level_pushed_later() -> None:
    layers = VariableLayers(extra_vars={"x": "extra"})
    for level in LEVELS:
        if level < Precedence.EXTRA_VARS:
            layers = layers.with_layer(level, {"x": level.name})
    assert layers.as_mapping()["x"] == "extra"
    assert layers.with_layer("loop", {"x": "item"}).as_mapping()["x"] == "item"


def test_within_a_level_the_layer_added_last_wins() -> None:
    outer = VariableLayers().with_layer("block_vars", {"x": "outer block", "y": "outer only"})
    inner = outer.with_layer("block_vars", {"x": "inner block"})
    assert inner.as_mapping()["x"] == "inner block"
    assert inner.as_mapping()["y"] == "outer only"
    assert outer.as_mapping()["x"] == "outer block"


def test_magic_variables_cannot_be_overridden_and_defaults_can() -> None:
    layers = VariableLayers(extra_vars={"inventory_hostname": "fake"},
                            magic=MagicVariables(inventory_hostname="web1"))
    assert layers.as_mapping()["inventory_hostname"] == "web1"
    assert layers.level_of("inventory_hostname") == "magic"
    assert layers.as_mapping()["ansible_managed"] == ANSIBLE_MANAGED
    overridden = layers.with_layer("role_defaults", {"ansible_managed": "Ours"})
    assert overridden.as_mapping()["ansible_managed"] == "Ours"


def test_layers_hold_references_so_registered_results_show_at_once() -> None:
    registered: dict = {}
    layers = VariableLayers().with_layer("registered", registered)
    task_view = layers.with_layer("task_vars", {"t": 1}).as_mapping()
    registered["result"] = {"rc": 0}
    assert task_view["result"] == {"rc": 0}


def test_children_do_not_change_their_parent() -> None:
    base = VariableLayers().with_layer("play_vars", {"x": 1})
    child = base.with_layer("task_vars", {"x": 2})
    assert base.as_mapping()["x"] == 1
    assert child.as_mapping()["x"] == 2


def test_the_view_lists_each_name_once_and_misses_raise_key_error() -> None:
    layers = VariableLayers(magic=MagicVariables(inventory_hostname="h")).with_layer("play_vars", {"a": 1}) \
        .with_layer("task_vars", {"a": 2, "b": 3})
    mapping = layers.as_mapping()
    names = list(mapping)
    assert names.count("a") == 1 and "b" in names and "inventory_hostname" in names
    assert len(mapping) == len(names)
    assert "missing" not in mapping
    with pytest.raises(KeyError):
        mapping["missing"]
    assert layers.level_of("missing") is None


def test_the_templar_reads_the_layers_with_precedence() -> None:
    layers = VariableLayers(extra_vars={"port": 9000}).with_layer("role_defaults", {"port": 80, "url": "h:{{ port }}"})
    assert Templar().template("{{ url }}", layers.as_mapping()) == "h:9000"


def test_levels_can_be_named_in_any_case_and_unknown_names_are_refused() -> None:
    assert precedence_of("play_vars") is Precedence.PLAY_VARS
    assert precedence_of("Role_Params") is Precedence.ROLE_PARAMS
    assert precedence_of(Precedence.FACTS.value) is Precedence.FACTS
    with pytest.raises(ValueError, match="did you mean 'PLAY_VARS'"):
        precedence_of("play_var")
