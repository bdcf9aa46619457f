"""Backslashes in a value's ``{{ }}`` string constants are literal, as in Ansible; conditions, ``{% %}``
statements and template files keep Jinja2's escapes."""

from __future__ import annotations

from pathlib import Path

from runner.templating.templar import Templar

VISUDO = "/etc/sudoers.d/x: parsed OK\n/etc/sudoers: bad"


def test_a_back_reference_written_once_reaches_the_filter() -> None:
    # As YAML leaves '{{ out | regex_search("(/.*sudoers).*:", "\1") }}' for the template to read.
    templar = Templar({"out": VISUDO})
    assert templar.template('{{ (out | regex_search("(/.*sudoers)[^:]*:", "\\1"))[0] }}') == "/etc/sudoers"
    assert templar.template("{{ 'a1b22' | regex_replace('(\\d+)', '<\\1>') }}") == "a<1>b<22>"


def test_an_expression_keeps_an_escape_sequence_as_written() -> None:
    assert Templar().template('{{ "C:\\newdir" }}') == "C:\\newdir"


def test_a_statement_and_a_condition_read_escapes_as_jinja2_does() -> None:
    templar = Templar({"text": "a\nb"})
    assert templar.template('{% set value = "a\\nb" %}{{ value }}') == "a\nb"
    assert templar.evaluate_conditional('text == "a\\nb"') is True
    assert templar.evaluate_conditional('{{ text == "a\\nb" }}') is True


def test_a_template_file_reads_escapes_as_jinja2_does(tmp_path: Path) -> None:
    source = tmp_path / "t.j2"
    source.write_text('{{ "x\\ty" }}\n')
    assert Templar().template_file(source) == "x\ty\n"


def test_the_same_text_as_value_and_as_condition_compiles_to_two_templates() -> None:
    templar = Templar({"text": "a\\nb"})
    assert templar.template('{{ text == "a\\nb" }}') is True
    assert templar.evaluate_conditional('{{ text == "a\\nb" }}') is False
