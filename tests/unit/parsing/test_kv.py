"""Free-form k=v arguments, split the way Ansible's split_args/parse_kv split them."""

from __future__ import annotations

import pytest

from runner.errors import UserError
from runner.parsing.kv import parse_adhoc_args, parse_kv, split_args


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", []),
        ("a=b", ["a=b"]),
        ('a=b c="foo bar"', ["a=b", 'c="foo bar"']),
        ("a='it is' b=2", ["a='it is'", "b=2"]),
        ('a="echo \\"hi there\\"" b=1', ['a="echo \\"hi there\\""', "b=1"]),
        ("msg={{ a | default('x y') }} other=1", ["msg={{ a | default('x y') }}", "other=1"]),
        ("a={% if x == 1 %}yes{% endif %} b=2", ["a={% if x == 1 %}yes{% endif %}", "b=2"]),
        ("a={# a comment #}b", ["a={# a comment #}b"]),
        ("a=1    b=2", ["a=1", "b=2"]),
        ("a=1 \\\n b=2", ["a=1", "b=2"]),
    ],
)
def test_split_args_keeps_quotes_and_jinja_blocks_whole(text: str, words: list[str]) -> None:
    assert split_args(text) == words


def test_values_lose_their_outer_quotes_only() -> None:
    assert parse_kv("a='x y' b=\"z\" c=plain") == {"a": "x y", "b": "z", "c": "plain"}
    assert parse_kv("a=\"'quoted'\"") == {"a": "'quoted'"}


def test_equals_signs_inside_values_belong_to_the_value() -> None:
    assert parse_kv("opts=a=b,c=d line='x = y'") == {"opts": "a=b,c=d", "line": "x = y"}


def test_escaped_quotes_and_escape_sequences_are_decoded_in_values() -> None:
    assert parse_kv('msg="echo \\"hello world\\"" sep="a\\tb"') == {"msg": 'echo "hello world"', "sep": "a\tb"}


def test_escaped_equals_in_the_key_position_is_not_a_separator() -> None:
    assert parse_kv("a\\=b=c") == {"a\\=b": "c"}
    assert parse_kv("echo x\\=y", check_raw=True) == {"_raw_params": "echo x=y"}


def test_jinja_with_spaces_stays_one_value_and_is_not_templated() -> None:
    assert parse_kv("name={{ pkgs }} state=present") == {"name": "{{ pkgs }}", "state": "present"}
    assert parse_kv('msg="{{ a }} and {{ b }}"') == {"msg": "{{ a }} and {{ b }}"}


def test_free_form_text_goes_to_raw_params_with_options_taken_out() -> None:
    args = parse_kv('echo "hello   world" > /tmp/x chdir=/tmp creates=/tmp/x', check_raw=True)
    assert args == {"chdir": "/tmp", "creates": "/tmp/x", "_raw_params": 'echo "hello   world" > /tmp/x'}


def test_free_form_keeps_k_equals_v_words_that_are_not_options() -> None:
    assert parse_kv("FOO=bar env", check_raw=True) == {"_raw_params": "FOO=bar env"}


def test_free_form_keeps_newlines_between_lines_of_a_script() -> None:
    assert parse_kv("set -e\necho one\necho two", check_raw=True) == {"_raw_params": "set -e\necho one\necho two"}


def test_free_form_text_keeps_its_own_backslashes() -> None:
    assert parse_kv("printf 'a\\nb'", check_raw=True) == {"_raw_params": "printf 'a\\nb'"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a='unclosed", "unbalanced ' quote"),
        ('a="unclosed', 'unbalanced " quote'),
        ("a={{ x", "unclosed Jinja2 block '{{'"),
        ("a={% if x", "unclosed Jinja2 block '{%'"),
    ],
)
def test_unbalanced_quotes_and_blocks_are_user_errors(text: str, expected: str) -> None:
    with pytest.raises(UserError, match=expected):
        parse_kv(text)


def test_a_bare_word_without_check_raw_is_a_user_error() -> None:
    with pytest.raises(UserError, match="expected key=value arguments, got 'oops'"):
        parse_kv("a=1 oops")


def test_adhoc_args_accept_json_or_key_value() -> None:
    assert parse_adhoc_args('{"name": ["a", "b"], "state": "present"}') == {"name": ["a", "b"], "state": "present"}
    assert parse_adhoc_args("path=/tmp/x state=touch") == {"path": "/tmp/x", "state": "touch"}
    assert parse_adhoc_args("uptime", check_raw=True) == {"_raw_params": "uptime"}
    assert parse_adhoc_args("  ") == {}


def test_adhoc_json_that_does_not_parse_is_a_user_error() -> None:
    with pytest.raises(UserError, match="look like JSON"):
        parse_adhoc_args('{"a": }')


def test_free_form_text_keeps_its_spacing_and_final_newline_as_ansible() -> None:
    script = "import os\nif True:\n    print('indented')\n"
    assert parse_kv(script, check_raw=True) == {"_raw_params": script}
    continued = 'echo this is a \\\n"multiline echo" \\\n"with a new line\nin quotes"\necho two\n'
    assert parse_kv(continued, check_raw=True)["_raw_params"] == \
        'echo this is a "multiline echo" "with a new line\nin quotes"\necho two\n'
    assert parse_kv("echo  a chdir=/tmp   b", check_raw=True) == {"_raw_params": "echo  a b", "chdir": "/tmp"}
