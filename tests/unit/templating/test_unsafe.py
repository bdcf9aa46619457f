"""Data from hosts is never templated again: facts and results come out verbatim, however they are used."""

from __future__ import annotations

import json
import pickle

import pytest

from runner.templating import (
    Templar,
    TemplateError,
    UnsafeDict,
    UnsafeList,
    UnsafeText,
    is_unsafe,
    mark_unsafe,
    strip_unsafe,
)
from runner.vars import FactsView, HostVars, MagicVariables, VariableLayers

HOSTILE = "{{ lookup('pipe', 'id') }}"


@pytest.fixture(scope="module")
def templar() -> Templar:
    return Templar()


@pytest.fixture
def host() -> tuple[VariableLayers, dict]:
    """A host whose facts and a registered result carry template text, as a compromised host could send."""
    facts = mark_unsafe({"hostname": HOSTILE, "mounts": [{"device": HOSTILE}]})
    registered: dict = {"result": mark_unsafe({"stdout": HOSTILE, "stdout_lines": [HOSTILE], "rc": 0})}
    layers = VariableLayers(magic=MagicVariables(inventory_hostname="h1")).with_layer("facts", FactsView(facts)) \
        .with_layer("set_fact", registered)
    return layers, registered


def test_a_fact_comes_out_verbatim_through_every_path(templar: Templar, host: tuple[VariableLayers, dict]) -> None:
    variables = host[0].as_mapping()
    assert templar.template("{{ ansible_hostname }}", variables) == HOSTILE
    assert templar.template("{{ ansible_facts.hostname }}", variables) == HOSTILE
    assert templar.template("{{ ansible_facts['mounts'][0].device }}", variables) == HOSTILE
    assert templar.template("name: {{ ansible_hostname }}", variables) == f"name: {HOSTILE}"
    assert templar.template("{{ result.stdout_lines | first }}", variables) == HOSTILE


def test_a_registered_result_used_as_arguments_is_not_rendered(templar: Templar,
                                                               host: tuple[VariableLayers, dict]) -> None:
    variables = host[0].as_mapping()
    args = templar.template({"content": "{{ result.stdout }}", "lines": "{{ result.stdout_lines }}"}, variables)
    assert args == {"content": HOSTILE, "lines": [HOSTILE]}


def test_set_fact_cannot_launder_host_data_into_a_template(templar: Templar,
                                                           host: tuple[VariableLayers, dict]) -> None:
    layers, registered = host
    variables = layers.as_mapping()
    # set_fact stores what the template produced; later tasks read it back
    registered["copied"] = templar.template("{{ result.stdout }}", variables)
    registered["mixed"] = templar.template("got {{ result.stdout }}", variables)
    registered["filtered"] = templar.template("{{ result.stdout | trim | lower }}", variables)
    registered["listed"] = templar.template("{{ result.stdout_lines | map('trim') | list }}", variables)
    registered["picked"] = templar.template("{{ ansible_facts.mounts | map(attribute='device') | list }}", variables)
    assert all(is_unsafe(registered[name]) for name in ("copied", "mixed", "filtered", "listed", "picked"))
    assert templar.template("{{ copied }}", variables) == HOSTILE
    assert templar.template("{{ mixed }}", variables) == f"got {HOSTILE}"
    assert templar.template("{{ filtered }}", variables) == HOSTILE
    assert templar.template("{{ listed[0] }}", variables) == HOSTILE
    assert templar.template("{{ picked[0] }}", variables) == HOSTILE


def test_hostvars_of_another_host_stay_verbatim(templar: Templar, host: tuple[VariableLayers, dict]) -> None:
    hostvars = HostVars(lambda name: host[0], ["h1"])
    other = VariableLayers(magic=MagicVariables(inventory_hostname="h2", hostvars=hostvars))
    variables = other.as_mapping()
    assert templar.template("{{ hostvars['h1'].ansible_hostname }}", variables) == HOSTILE
    assert templar.template("{{ hostvars.h1.result.stdout }}", variables) == HOSTILE


def test_a_condition_cannot_come_from_a_host(templar: Templar) -> None:
    with pytest.raises(TemplateError, match="untrusted template or expression"):
        templar.evaluate_conditional(UnsafeText("lookup('pipe', 'id') == ''"), {})


def test_safe_text_next_to_unsafe_text_is_still_rendered(templar: Templar) -> None:
    variables = {"greeting": "hello {{ name }}", "name": "ann", "remote": UnsafeText("{{ name }}")}
    assert templar.template({"a": "{{ greeting }}", "b": "{{ remote }}"}, variables) == {"a": "hello ann",
                                                                                        "b": "{{ name }}"}
    assert not is_unsafe(templar.template("{{ greeting }}", variables))


def test_unsafe_values_behave_serialise_and_travel_like_plain_ones() -> None:
    marked = mark_unsafe({"a": ["x", {"b": "y"}], "n": 1, "t": ("z",)})
    assert isinstance(marked, UnsafeDict)
    assert isinstance(marked["a"], UnsafeList)
    assert isinstance(marked["a"][1]["b"], UnsafeText)
    assert marked == {"a": ["x", {"b": "y"}], "n": 1, "t": ["z"]}
    assert json.loads(json.dumps(marked)) == marked
    travelled = pickle.loads(pickle.dumps(marked))
    assert isinstance(travelled["a"][1]["b"], UnsafeText)
    plain = strip_unsafe(marked)
    assert type(plain["a"][0]) is str and not is_unsafe(plain)
