"""The Templar: native types, strict undefined variables, lazy variables, compile cache, strict conditionals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.errors import UserError
from runner.templating import OMIT, Templar, TemplateError, drop_omitted


@pytest.fixture(scope="module")
def templar() -> Templar:
    return Templar()


def test_a_single_expression_keeps_its_native_type(templar: Templar) -> None:
    variables = {"pkgs": ["nginx", "curl"], "port": 8080, "ratio": 0.5, "on": True, "conf": {"a": 1}, "nothing": None}
    assert templar.template("{{ pkgs }}", variables) == ["nginx", "curl"]
    assert templar.template("{{ port }}", variables) == 8080
    assert templar.template("{{ ratio }}", variables) == 0.5
    assert templar.template("{{ on }}", variables) is True
    assert templar.template("{{ conf }}", variables) == {"a": 1}
    assert templar.template("{{ nothing }}", variables) is None


def test_a_string_that_looks_like_a_number_stays_a_string(templar: Templar) -> None:
    assert templar.template("{{ version }}", {"version": "1.10"}) == "1.10"
    assert templar.template("{{ mode }}", {"mode": "0644"}) == "0644"


def test_text_around_expressions_gives_a_string(templar: Templar) -> None:
    assert templar.template("port={{ port }}", {"port": 80}) == "port=80"
    assert templar.template("{{ a }}{{ b }}", {"a": 1, "b": 2}) == "12"
    assert templar.template("{{ a }}!", {"a": [1]}) == "[1]!"


def test_a_rendered_list_literal_becomes_a_list_as_in_ansible(templar: Templar) -> None:
    assert templar.template("[{{ a }}, {{ b }}]", {"a": 1, "b": 2}) == [1, 2]
    assert templar.template("['{{ a }}']", {"a": "x"}) == ["x"]
    assert templar.template("[section] {{ a }}", {"a": 1}) == "[section] 1"


def test_strings_without_jinja_are_returned_as_they_are(templar: Templar) -> None:
    plain = "no templates here: {not one} 100%"
    assert templar.template(plain, {}) is plain


def test_dicts_and_lists_are_rendered_item_by_item_keys_included(templar: Templar) -> None:
    value = {"name": "{{ n }}", "{{ k }}": ["{{ n | upper }}", 3, None], "flag": True}
    assert templar.template(value, {"n": "web", "k": "key"}) == {"name": "web", "key": ["WEB", 3, None], "flag": True}


def test_undefined_variable_is_an_error_naming_it(templar: Templar) -> None:
    with pytest.raises(TemplateError) as caught:
        templar.template("{{ foo }}/bar", {})
    assert "'foo' is undefined" in caught.value.message
    assert caught.value.undefined_name == "foo"
    assert isinstance(caught.value, UserError)


@pytest.mark.parametrize("source", ["{{ [1, missing] }}", "{{ [{'key': missing}] }} and text", "a {{ (missing,) }}"])
def test_undefined_inside_a_native_list_is_still_an_error(templar: Templar, source: str) -> None:
    with pytest.raises(TemplateError, match="'missing' is undefined"):
        templar.template(source, {})


def test_undefined_attribute_of_undefined_variable_names_the_variable(templar: Templar) -> None:
    with pytest.raises(TemplateError, match="'cfg' is undefined"):
        templar.template("{{ cfg.port }}", {})
    assert templar.template("{{ cfg.port | default(22) }}", {}) == 22
    assert templar.template("{{ cfg.port is defined }}", {}) is False


def test_missing_key_of_a_dict_is_an_error(templar: Templar) -> None:
    with pytest.raises(TemplateError, match="has no attribute 'nope'"):
        templar.template("{{ d.nope }}", {"d": {"a": 1}})


def test_dict_keys_read_as_attributes_or_items(templar: Templar) -> None:
    variables = {"d": {"port": 22, "host-name": "x"}}
    assert templar.template("{{ d.port }}", variables) == 22
    assert templar.template("{{ d['port'] }}", variables) == 22
    assert templar.template("{{ d['host-name'] }}", variables) == "x"


def test_variables_are_rendered_when_read_with_their_native_type(templar: Templar) -> None:
    variables = {"base": 8000, "port": "{{ base + 80 }}", "url": "http://{{ host }}:{{ port }}", "host": "h1",
                 "nested": {"list": ["{{ port }}"]}}
    assert templar.template("{{ port }}", variables) == 8080
    assert templar.template("{{ url }}", variables) == "http://h1:8080"
    assert templar.template("{{ nested.list[0] + 1 }}", variables) == 8081
    assert templar.template("{{ vars['url'] }}", variables) == "http://h1:8080"


def test_a_variable_that_refers_to_itself_is_reported_not_a_crash(templar: Templar) -> None:
    with pytest.raises(TemplateError, match="Recursive loop detected in template: variable 'a' refers to itself"):
        templar.template("{{ a }}", {"a": "{{ b }}", "b": "{{ a }}"})


def test_an_item_of_a_variable_reads_its_siblings_as_ansible_core_templates_lazily(templar: Templar) -> None:
    variables = {"data": {"a": 1, "b": "{{ data.a + 1 }}",
                          "nested": {"x": "{{ data.b }}", "y": "{{ data.nested.x * 2 }}"},
                          "list": ["{{ data.a }}", "{{ data.list[0] + 10 }}", "{{ data.list | length }}"]}}
    assert templar.template("{{ data }}", variables) == {"a": 1, "b": 2, "nested": {"x": 2, "y": 4}, "list": [1, 11, 3]}
    assert templar.template("{{ data.nested.y }}", variables) == 4
    assert templar.template("{{ data.list[1] }}", variables) == 11


def test_a_variable_read_in_a_template_renders_only_the_items_read(templar: Templar) -> None:
    """As ansible-core 2.19's lazy containers: ``{{ top.key1 }}`` through two indirections never renders
    ``key2``, whose template would fail; the whole of it renders when it leaves the template or meets a filter."""
    variables = {"top": "{{ middle }}", "middle": "{{ lowest }}",
                 "lowest": {"key1": "static", "key2": {"deep": "{{ 1 / 0 }}"}, "items": ["{{ 1 + 1 }}"]}}
    assert templar.template("{{ top.key1 }}", variables) == "static"
    assert templar.template("{{ top['items'] | length }}", variables) == 1
    assert templar.template("{{ top['items'] | map('string') | list }}", variables) == ["2"]
    assert templar.template("{{ top['items'] == [2] }}", variables) is True
    with pytest.raises(TemplateError, match="division by zero"):
        templar.template("{{ top }}", variables)
    with pytest.raises(TemplateError, match="division by zero"):
        templar.template("{{ lookup('vars', 'lowest') }}", variables)
    with pytest.raises(TemplateError, match="division by zero"):
        templar.template("{{ top | to_json }}", variables)


def test_a_lazily_read_variable_adds_compares_and_has_the_methods_of_its_list_or_dict(templar: Templar) -> None:
    variables = {"files": ["{{ 'a' }}", "b"], "data": {"k": "{{ 1 }}", "x": 2}}
    assert templar.template("{{ files + ['c'] }}", variables) == ["a", "b", "c"]
    assert templar.template("{{ ['z'] + files }}", variables) == ["z", "a", "b"]
    assert templar.template("{{ files * 2 }}", variables) == ["a", "b", "a", "b"]
    assert templar.template("{{ files < ['b'] }}", variables) is True
    assert templar.template("{{ files.index('b') }}", variables) == 1
    assert templar.template("{{ data.copy() }}", variables) == {"k": 1, "x": 2}
    assert templar.template("{{ data | dict2items | length }}", variables) == 2


def test_a_siblings_plain_data_reaches_filters_as_it_is(templar: Templar) -> None:
    variables = {"data": {"a": {"x": 1}, "json": "{{ data.a | to_json }}",
                          "merged": "{{ data.a | combine({'y': 2}) }}"}}
    assert templar.template("{{ data }}", variables) == {"a": {"x": 1}, "json": '{"x": 1}', "merged": {"x": 1, "y": 2}}


def test_an_item_that_needs_itself_through_its_variable_is_a_loop(templar: Templar) -> None:
    with pytest.raises(TemplateError, match=r"Recursive loop detected in template: data\['a'\] refers to itself"):
        templar.template("{{ data.a }}", {"data": {"a": "{{ data.b }}", "b": "{{ data.a }}"}})
    with pytest.raises(TemplateError, match=r"Recursive loop detected in template: whole\['w'\] refers to itself"):
        templar.template("{{ whole.w }}", {"whole": {"w": "{{ whole }}"}})


def test_each_template_string_is_compiled_once(templar: Templar) -> None:
    source = "{{ compile_once_marker + 1 }}"
    templar.precompile(source)
    compiled = templar.environment.compiled(source)
    assert templar.template(source, {"compile_once_marker": 1}) == 2
    assert templar.environment.compiled(source) is compiled


def test_syntax_errors_are_template_errors_saying_what_is_wrong(templar: Templar) -> None:
    with pytest.raises(TemplateError, match="Syntax error in template"):
        templar.precompile("{{ a + }}")
    with pytest.raises(TemplateError, match="Syntax error in template"):
        templar.template("{% if %}", {})


def test_a_syntax_error_from_pythons_compiler_is_a_template_error(templar: Templar, tmp_path: Path) -> None:
    """Jinja2 passes some errors of the code it generates through as Python's SyntaxError."""
    with pytest.raises(TemplateError, match="Syntax error in template: keyword argument repeated: a"):
        templar.template("{{ dict(a=1, a=2) }}", {})
    (tmp_path / "t.j2").write_text("line\n{{ dict(a=1, a=2) }}\n")
    with pytest.raises(TemplateError, match="Syntax error in template: keyword argument repeated: a"):
        templar.template_file(tmp_path / "t.j2", {})


def test_unknown_filter_gets_a_did_you_mean(templar: Templar) -> None:
    with pytest.raises(TemplateError) as caught:
        templar.template("{{ x | to_jsn }}", {"x": 1})
    assert "No filter named 'to_jsn'" in caught.value.message
    assert caught.value.hint == "did you mean 'to_json'?"


def test_a_failing_filter_is_a_template_error_naming_the_template(templar: Templar) -> None:
    with pytest.raises(TemplateError, match=r"templating '\{\{ 1 / 0 \}\}'"):
        templar.template("{{ 1 / 0 }}", {})


def test_default_variables_given_to_the_constructor() -> None:
    assert Templar({"x": 3}).template("{{ x * 2 }}") == 6


def test_omit_drops_the_argument(templar: Templar) -> None:
    args = templar.template({"path": "/x", "mode": "{{ mode | default(omit) }}", "opts": ["a", "{{ omit }}"]},
                            {"omit": OMIT})
    assert args["mode"] == OMIT
    assert drop_omitted(args) == {"path": "/x", "opts": ["a"]}
    assert OMIT.startswith("__omit_place_holder__")


class TestConditionals:
    @pytest.mark.parametrize(
        ("condition", "expected"),
        [
            ("x == 1", True),
            ("x is defined", True),
            ("y is defined", False),
            ("{{ x == 1 }}", True),
            (True, True),
            (False, False),
            (None, True),
            ("", True),
            ("flag", True),
            ("off_flag", False),
            ("{{ flag }}", True),
            (["x == 1", "flag"], True),
            (["x == 1", "x == 2"], False),
        ],
    )
    def test_conditions_evaluate_strictly_to_booleans(self, templar: Templar, condition: Any, expected: bool) -> None:
        assert templar.evaluate_conditional(condition, {"x": 1, "flag": "Yes", "off_flag": "no"}) is expected

    def test_a_list_of_conditions_stops_at_the_first_false(self, templar: Templar) -> None:
        assert templar.evaluate_conditional(["x is defined", "x.missing == 1"], {}) is False

    @pytest.mark.parametrize(("value", "type_name"), [("foo", "str"), (1, "int"), ([1], "list"), ({}, "dict")])
    def test_a_non_boolean_result_is_an_error_saying_what_was_expected(self, templar: Templar, value: Any,
                                                                       type_name: str) -> None:
        with pytest.raises(TemplateError) as caught:
            templar.evaluate_conditional("x", {"x": value})
        assert f"Conditional result was {value!r} of type '{type_name}'" in caught.value.message
        assert "not a boolean" in caught.value.message
        assert "| bool" in (caught.value.hint or "")

    def test_an_undefined_variable_in_a_condition_is_an_error(self, templar: Templar) -> None:
        with pytest.raises(TemplateError, match="'nope' is undefined"):
            templar.evaluate_conditional("nope == 1", {})

    def test_a_condition_that_is_not_text_or_boolean_is_an_error(self, templar: Templar) -> None:
        with pytest.raises(TemplateError, match="of type 'int'"):
            templar.evaluate_conditional(3, {})


class TestTextTemplates:
    def test_template_text_always_gives_text(self, templar: Templar) -> None:
        assert templar.template_text("{{ items }}", {"items": [1, 2]}) == "[1, 2]"
        assert templar.template_text("a={{ nothing }}\n", {"nothing": None}) == "a=\n"

    def test_template_file_finds_includes_beside_it_and_trims_blocks(self, templar: Templar, tmp_path: Path) -> None:
        # trim_blocks is on, as in Ansible: the newline right after a block tag is dropped
        (tmp_path / "main.conf.j2").write_text("{{ ansible_managed | comment }}\n{% include 'part.j2' %}\n\n"
                                               "{% for p in ports %}\nlisten {{ p }}\n{% endfor %}\n")
        (tmp_path / "part.j2").write_text("user={{ user }}")
        rendered = templar.template_file(tmp_path / "main.conf.j2",
                                         {"ansible_managed": "Managed", "user": "www", "ports": [80, 443]})
        assert rendered == "#\n# Managed\n#\nuser=www\nlisten 80\nlisten 443\n"

    def test_template_file_includes_from_the_search_paths_templates_folder(self, templar: Templar,
                                                                           tmp_path: Path) -> None:
        role = tmp_path / "role"
        (role / "templates").mkdir(parents=True)
        (role / "templates" / "header.j2").write_text("# {{ name }}")
        main = tmp_path / "main.j2"
        main.write_text("{% include 'header.j2' %} body")
        assert templar.template_file(main, {"name": "svc"}, search_paths=[role]) == "# svc body"

    def test_jinja_options_apply_to_a_file(self, templar: Templar, tmp_path: Path) -> None:
        source = tmp_path / "t.j2"
        source.write_text("a\n    {% if true %}\nb\n    {% endif %}\n")
        assert templar.template_file(source, {}, lstrip_blocks=True) == "a\nb\n"
        assert templar.environment.with_options(lstrip_blocks=True) is templar.environment.with_options(
            lstrip_blocks=True)

    def test_missing_template_file_is_a_template_error(self, templar: Templar, tmp_path: Path) -> None:
        with pytest.raises(TemplateError, match="template file not found"):
            templar.template_file(tmp_path / "absent.j2", {})


def test_a_lazy_result_becomes_the_list_it_yields() -> None:
    templar = Templar()
    things = [{"name": "one"}, {"name": "two"}]
    assert templar.template("{{ things | map(attribute='name') }}", {"things": things}) == ["one", "two"]
    assert templar.template("{{ [3, 1] | select('gt', 2) }}", {}) == [3]


def test_an_undefined_inside_a_lazy_result_fails_the_template() -> None:
    with pytest.raises(TemplateError, match="has no attribute 'name'"):
        Templar().template("{{ things | map(attribute='name') }}", {"things": [{"name": "one"}, {"other": 3}]})


def test_an_included_files_last_newline_goes_and_the_file_keeps_its_own(tmp_path: Path) -> None:
    (tmp_path / "world.txt").write_text("world\n")
    (tmp_path / "hello.txt").write_text("Hello {% include 'world.txt' %}!\n\n")
    assert Templar().template_file(tmp_path / "hello.txt", {}) == "Hello world!\n\n"


@pytest.mark.parametrize(("expression", "expected"), [
    ("y | default(3)", 3),
    ("y is defined", False),
    ("z | default('fallback')", "fallback"),
])
def test_a_variable_whose_template_is_undefined_reads_as_undefined(expression: str, expected: Any) -> None:
    variables = {"y": "{{ missing }}", "z": "{{ undef(hint='give z') }}"}
    assert Templar().template("{{ " + expression + " }}", variables) == expected


@pytest.mark.parametrize(("name", "message"), [("y", "'missing' is undefined"), ("z", "give z"),
                                               ("w", "Mandatory variable has not been overridden")])
def test_using_such_a_variable_fails_with_the_first_error_or_the_hint(name: str, message: str) -> None:
    variables = {"y": "{{ missing }}", "z": "{{ undef(hint='give z') }}", "w": "{{ undef() }}"}
    with pytest.raises(TemplateError, match=message):
        Templar().template("{{ " + name + " }}", variables)


@pytest.mark.parametrize("condition", ["no", "On"])
def test_a_quoted_yaml_1_1_boolean_word_as_a_condition_is_a_variable_name(condition: str) -> None:
    # unquoted, YAML makes `when: no` a boolean; quoted, it is an expression naming a variable, as in Ansible
    assert Templar().evaluate_conditional(condition, {condition: True}) is True
    with pytest.raises(TemplateError, match="is undefined"):
        Templar().evaluate_conditional(condition)


@pytest.mark.parametrize(("expression", "expected"), [
    ("results | select('success') | length", 1),
    ("results | rejectattr('failed') | list | length", 1),
    ("names | map('upper') | last", "B"),
    ("names | reject('eq', 'a') | first", "b"),
])
def test_jinjas_lazy_filters_give_lists_as_ansibles_do(expression: str, expected: Any) -> None:
    variables = {"results": [{"failed": False}, {"failed": True}], "names": ["a", "b"]}
    assert Templar().template("{{ " + expression + " }}", variables) == expected


def test_an_exception_while_rendering_is_said_in_ansibles_words_with_its_type() -> None:
    with pytest.raises(TemplateError) as raised:
        Templar().template("{{ 1 / 0 }}")
    assert raised.value.message == ("Error rendering template: division by zero (ZeroDivisionError) (templating "
                                    "'{{ 1 / 0 }}')")


def test_an_exception_while_evaluating_a_conditional_is_the_expressions() -> None:
    with pytest.raises(TemplateError) as raised:
        Templar().evaluate_conditional("1 / 0")
    assert raised.value.message.startswith("Error rendering expression: division by zero (ZeroDivisionError)")


def test_untrusted_template_behavior_leaves_warns_of_or_refuses_a_template_in_untrusted_text() -> None:
    from runner.templating import UNTRUSTED_TEMPLATES
    from runner.util.unsafe import UnsafeText

    variables = {"data": {"raw": UnsafeText("{{ 1 + 1 }}"), "plain": UnsafeText("text"), "done": "{{ 1 + 1 }}"}}
    expected = {"raw": "{{ 1 + 1 }}", "plain": "text", "done": 2}
    try:
        for behavior, noted in (("ignore", []), ("warning", ["{{ 1 + 1 }}"])):
            UNTRUSTED_TEMPLATES.behavior = behavior
            templar = Templar(variables)
            assert templar.template("{{ data }}") == expected
            assert templar.untrusted_templates == noted
        UNTRUSTED_TEMPLATES.behavior = "error"
        with pytest.raises(TemplateError, match="Encountered untrusted template or expression"):
            Templar(variables).template("{{ data }}")
    finally:
        UNTRUSTED_TEMPLATES.behavior = "ignore"


def test_a_template_in_a_conditions_string_constant_renders_data_into_it(templar: Templar) -> None:
    """As Ansible 2.19: '"{{ home }}/x" in paths' is an expression whose string constant is rendered; what a host
    said stays data in that constant (a quote in it ends nothing), so it is not refused as untrusted."""
    from runner.util.unsafe import mark_unsafe

    variables = {"home": mark_unsafe('/home/o"brien'), "paths": mark_unsafe(['/home/o"brien/x']), "a": 5}
    assert templar.evaluate_conditional('"{{ home }}/x" in paths', variables) is True
    assert templar.evaluate_conditional("'{{ home }}/y' in paths", variables) is False
    assert templar.evaluate_conditional('"{{ home }}" == "/home/o\\"brien"', variables) is True



def test_template_delimiters_in_a_conditions_expression_are_refused_as_in_ansible_2_19(templar: Templar) -> None:
    """Outside string constants, "{{ a }} == 5" is an expression (a syntax error), not a template rendered into
    one; "{{ a }} == {{ b }}" is a template whose text result is never evaluated again."""
    with pytest.raises(TemplateError, match=r"Syntax error in expression\. Template delimiters are not supported"):
        templar.evaluate_conditional("{{ a }} == 5", {"a": 5})
    with pytest.raises(TemplateError, match="Encountered untrusted template or expression"):
        templar.evaluate_conditional("{{ 'hello' }} == {{ 'world' }}", {})


def test_a_modules_conditions_are_left_for_it_to_evaluate() -> None:
    from runner.executor.task_args import task_arguments
    from runner.util.unsafe import mark_unsafe

    templar = Templar({"home": mark_unsafe("/home/x"), "checks": ["a is defined"]})
    args = {"that": ['"{{ home }}/f" in files'], "fail_msg": "{{ home }} lacks f"}
    assert task_arguments(templar, "assert", args, ("that",)) == {"that": ['"{{ home }}/f" in files'],
                                                                  "fail_msg": "/home/x lacks f"}
    # a whole template stays too: the action renders it to find a list of conditions (runner.actions.assertions)
    assert task_arguments(templar, "assert", {"that": "{{ checks }}"}, ("that",)) == {"that": "{{ checks }}"}
