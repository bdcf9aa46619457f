"""Which text a condition may evaluate as an expression, as Ansible 2.19 trusts it: text written in the playbook,
and a variable's own text read through ``{{ name }}``; never text a host sent, nor a string a template made."""

from __future__ import annotations

import pytest

from runner.loader.yaml import load_yaml_text
from runner.models import Task, TaskList, validate
from runner.templating import Templar, TemplateError
from runner.templating.deprecations import collecting
from runner.util.unsafe import UnsafeText


def test_a_variable_holding_an_expression_is_evaluated_through_a_whole_template() -> None:
    templar = Templar({"check": "1 == 1", "nested": {"checks": ["2 > 3"]}, "flag": "yes"})
    assert templar.evaluate_conditional("{{ check }}") is True
    assert templar.evaluate_conditional("{{ nested.checks[0] }}") is False
    assert templar.evaluate_conditional("{{ flag }}") is True  # a boolean word is a boolean, not a variable


@pytest.mark.parametrize("condition", ["{{ '1 == 1' }}", "{{ check ~ '' }}", "{{ from_host }}"])
def test_a_string_a_template_made_or_a_host_sent_is_refused(condition: str) -> None:
    templar = Templar({"check": "1 == 1", "from_host": UnsafeText("1 == 1")})
    with pytest.raises(TemplateError, match="Encountered untrusted template or expression"):
        templar.evaluate_conditional(condition)


def test_rendered_strings_of_written_data_are_untrusted_and_written_text_is_not() -> None:
    items = Templar({"x": "hi"}).template_untrusting_results(
        ["a == 'b'", "'{{ x }}' == 'hi'", {"that": "'{{ x }}' == 'hi'", "plain": "1 == 1"}, "{{ 1 == 1 }}"])
    assert items == ["a == 'b'", "'hi' == 'hi'", {"that": "'hi' == 'hi'", "plain": "1 == 1"}, True]
    assert [isinstance(text, UnsafeText) for text in (items[0], items[1], items[2]["that"], items[2]["plain"])] == [
        False, True, True, False]


def test_a_condition_written_unsafe_keeps_its_mark_through_the_task_model() -> None:
    (task,) = validate(TaskList, load_yaml_text("- debug:\n  when: !unsafe 1 == 0\n"), is_module=lambda _: True)
    assert isinstance(task, Task) and task.when is not None and isinstance(task.when[0], UnsafeText)
    with pytest.raises(TemplateError, match="Encountered untrusted template or expression"):
        Templar().evaluate_conditional(task.when[0])


def test_a_condition_in_template_delimiters_is_a_deprecation_collected_for_the_task() -> None:
    templar = Templar({"a": 1})
    with collecting() as found:
        assert templar.evaluate_conditional("{{ a == 1 }}") is True
        assert templar.evaluate_conditional("a == 1") is True
    assert [entry["msg"] for entry in found] == [
        "Conditionals should not be surrounded by templating delimiters such as {{ }} or {% %}."]
    assert found[0]["version"] == "2.23"


def test_a_lookups_term_written_with_a_template_is_rendered_and_one_from_a_host_is_not() -> None:
    templar = Templar({"word": "dude", "from_host": UnsafeText("{{ word }}")})
    assert templar.template("{{ lookup('pipe', 'echo {{ word }}') }}") == "dude"
    assert templar.evaluate_conditional("lookup('pipe', 'echo {{ word }}') == 'dude'") is True
    assert templar.template("{{ lookup('pipe', 'echo ' ~ from_host) }}") == "{{ word }}"


def test_templates_in_a_list_or_mapping_written_as_a_lookups_term_are_rendered() -> None:
    templar = Templar({"word": "dude", "from_host": [UnsafeText("{{ word }}")]})
    assert templar.template("{{ lookup('list', ['{{ 1 }}', 'a']) }}") == [1, "a"]
    assert templar.template("{{ lookup('dict', {'key': '{{ word }}'}) }}") == {"key": "key", "value": "dude"}
    assert templar.template("{{ lookup('list', from_host) }}") == ["{{ word }}"]


def test_a_template_container_leaves_the_items_as_written() -> None:
    templar = Templar({"checks": ["{{ 1 == 1 }}", "x is defined"], "x": 1})
    assert templar.template_container("{{ checks }}") == ["{{ 1 == 1 }}", "x is defined"]
    assert templar.template("{{ checks }}") == [True, "x is defined"]


def test_allow_broken_conditionals_reads_a_non_boolean_as_pythons_truth() -> None:
    from runner.templating import UNTRUSTED_TEMPLATES

    with pytest.raises(TemplateError, match="is not a boolean"):
        Templar().evaluate_conditional("'broken static'")
    UNTRUSTED_TEMPLATES.allow_broken_conditionals = True
    try:
        assert Templar().evaluate_conditional("'broken static'") is True
        assert Templar().evaluate_conditional("''") is False
    finally:
        UNTRUSTED_TEMPLATES.allow_broken_conditionals = False
