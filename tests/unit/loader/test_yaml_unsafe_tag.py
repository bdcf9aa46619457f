"""The ``!unsafe`` YAML tag: what it marks is data, never a template, wherever it is used (ansible-core 2.19
renders the same playbook the same way)."""

from __future__ import annotations

import pytest

from runner.loader.yaml import load_yaml_text
from runner.templating import Templar, TemplateError, is_unsafe


def test_a_string_list_and_mapping_are_marked_all_through() -> None:
    data = load_yaml_text("s: !unsafe '{{ x }}'\nl: !unsafe ['{{ x }}', 1]\n"
                          "m: !unsafe {a: '{{ x }}'}\nplain: '{{ x }}'\n")
    assert data["s"] == "{{ x }}" and is_unsafe(data["s"])
    assert data["l"] == ["{{ x }}", 1] and is_unsafe(data["l"][0])
    assert data["m"] == {"a": "{{ x }}"} and is_unsafe(data["m"]["a"])
    assert not is_unsafe(data["plain"])


def test_marked_text_is_never_rendered_and_never_evaluated() -> None:
    variables = load_yaml_text("x: 1\nu: !unsafe '{{ x }}'\nvia: '{{ u }}'\ncondition: !unsafe 'x == 1'\n")
    templar = Templar()
    assert templar.template(["{{ u }}", "{{ via }}", "{{ u ~ 'y' }}"], variables) == ["{{ x }}"] * 2 + ["{{ x }}y"]
    with pytest.raises(TemplateError, match="untrusted template or expression"):
        templar.evaluate_conditional(variables["condition"], variables)
