"""Errors of filters, tests and calls captured as values, as ansible-core 2.19's ``CapturedExceptionMarker``: passed
on by what does not accept them, raised where used, shown by ``ansible._protomatter.dump_object``."""

from __future__ import annotations

import pytest

from runner.templating import Templar, TemplateError

DUMP = "ansible._protomatter.dump_object"


def test_a_failing_filter_call_or_lookup_is_a_value_dump_object_shows() -> None:
    templar = Templar({"syntax_error": "{{ #'"})
    messages = {
        "syntax_error": "Syntax error in template",
        "undef(0)": "The 'hint' argument must be of type 'str' or 'NoneType', not 'int'.",
        "lookup('pipe', 'exit 1')": "The lookup plugin 'pipe' failed",
        "'{' | from_json": "Expecting property name enclosed in double quotes",
    }
    for expression, message in messages.items():
        assert message in templar.template(f"{{{{ ({expression} | {DUMP}).exception.message }}}}")
    assert templar.template("{{ '{' | from_json | ansible._protomatter.true_type }}") == "CapturedExceptionMarker"


def test_a_captured_error_is_raised_where_used_and_passed_on_by_default_and_defined() -> None:
    templar = Templar({"syntax_error": "{{ #'"})
    for used in (
        "{{ '{' | from_json }}",
        "{{ '{' | from_json | default('d') }}",
        "{{ ('{' | from_json) is defined }}",
        "x {{ '{' | from_json }}",
        "{{ syntax_error | upper }}",
    ):
        with pytest.raises(TemplateError, match=r"Expecting property name|Syntax error in template"):
            templar.template(used)


def test_an_undefined_a_filter_trips_on_stays_undefined() -> None:
    templar = Templar({})
    assert templar.template("{{ missing | upper | default('d') }}") == "d"
    assert templar.template("{{ missing | upper is defined }}") is False
    with pytest.raises(TemplateError, match="'missing' is undefined"):
        templar.template("{{ missing | upper }}")


def test_a_captured_error_is_not_left_out_with_the_undefined_items_of_a_lookups_terms() -> None:
    templar = Templar({})
    assert templar.template_omitting_undefined(["{{ missing }}", "b"]) == ["b"]
    with pytest.raises(TemplateError, match="Expecting property name"):
        templar.template_omitting_undefined(["{{ '{' | from_json }}", "b"])
