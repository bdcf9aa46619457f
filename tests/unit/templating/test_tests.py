"""Jinja2 tests as Ansible defines them: results, types, regexes, sets, versions, controller paths."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from runner.templating import Templar, TemplateError

CHANGED = {"changed": True, "failed": False}
FAILED = {"changed": False, "failed": True, "msg": "boom"}
SKIPPED = {"changed": False, "skipped": True}
LOOP = {"results": [{"changed": False}, {"changed": True}]}


@pytest.fixture(scope="module")
def templar() -> Templar:
    return Templar()


def check(templar: Templar, expression: str, **variables: Any) -> Any:
    return templar.template("{{ " + expression + " }}", variables)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("changed_result is changed", True),
        ("failed_result is changed", False),
        ("loop_result is changed", True),
        ("changed_result is failed", False),
        ("failed_result is failed", True),
        ("failed_result is succeeded", False),
        ("changed_result is success", True),
        ("skipped_result is skipped", True),
        ("changed_result is skipped", False),
        ("{'unreachable': True} is unreachable", True),
        ("{} is reachable", True),
        ("{'started': 1, 'finished': 0} is started", True),
        ("{'started': 0} is started", False),
        ("changed_result is started", True),
        ("x is defined", True),
        ("y is undefined", True),
        ("'a' is string", True),
        ("1 is string", False),
        ("1.5 is number", True),
        ("{} is mapping", True),
        ("[1] is sequence", True),
        ("'abc' is iterable", True),
        ("true is boolean", True),
        ("1 is integer", True),
        ("1.0 is float", True),
        ("'hello world' is match('hello')", True),
        ("'hello world' is match('world')", False),
        ("'hello world' is search('world')", True),
        ("'HELLO' is search('hello', ignorecase=true)", True),
        ("'a\nb' is search('^b', multiline=true)", True),
        ("'abc' is regex('b')", True),
        ("'abc' is regex('b', match_type='match')", False),
        ("[1, 2] is subset([1, 2, 3])", True),
        ("[1, 4] is subset([1, 2, 3])", False),
        ("[1, 2, 3] is superset([2])", True),
        ("[1, 2, 3] is contains(2)", True),
        ("['a', 'b'] is contains('c')", False),
        ("'1.10' is version('1.9', '>')", True),
        ("'1.10' is version('1.9', 'lt')", False),
        ("'2.0' is version('2.0', '==')", True),
        ("'2.0' is version_compare('2.1', '<')", True),
        ("'1.2.3' is version('1.2.3', '!=')", False),
        ("'1.0' is version('1.0a1', '>', strict=true)", True),
        ("'1.0.0-rc.1' is version('1.0.0', '<', version_type='semver')", True),
        ("'1.0.0-alpha.2' is version('1.0.0-alpha.10', '<', version_type='semver')", True),
        ("'1.0rc1' is version('1.0', '<', version_type='pep440')", True),
        ("'yes' is truthy", True),
        ("'no' is truthy", True),
        ("'no' is truthy(convert_bool=true)", False),
        ("0 is falsy", True),
        ("'off' is falsy(convert_bool=true)", True),
        ("[true, false] is any", True),
        ("[true, false] is all", False),
        ("'/etc' is abs", True),
        ("'etc' is abs", False),
    ],
)
def test_test(templar: Templar, expression: str, expected: bool) -> None:
    variables = {"changed_result": CHANGED, "failed_result": FAILED, "skipped_result": SKIPPED,
                 "loop_result": LOOP, "x": 1}
    assert check(templar, expression, **variables) is expected


def test_path_tests_look_at_the_controller(templar: Templar, tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    os.symlink(tmp_path / "f", tmp_path / "l")
    variables = {"d": str(tmp_path), "f": str(tmp_path / "f"), "l": str(tmp_path / "l"), "n": str(tmp_path / "n")}
    assert check(templar, "f is file and d is directory and l is link and f is exists", **variables) is True
    assert check(templar, "d is file or f is directory or f is link or n is exists", **variables) is False


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("'x' is changed", "expects a task result"),
        ("'x' is started", "expects a task result"),
        ("'' is version('1.0', '>')", "Input version value cannot be empty"),
        ("'1.0' is version('', '>')", "Version parameter to compare against cannot be empty"),
        ("'1.0' is version('1.0', 'about')", "invalid version comparison operator"),
        ("'1.0' is version('1', strict=true, version_type='semver')", "not both"),
        ("'1.0' is version('x.y', strict=true)", "invalid version number"),
        ("'1.0a' is version('1.0.1', '<')", "cannot compare versions"),
        ("'1' is version('2', version_type='calendar')", "unknown version_type"),
        # ansible-core 2.21's message (followed where 2.19 failed with Python's AttributeError)
        ("'1.0' is regex('.l', match_type='invalid')",
         r"Invalid match_type specified\. Expected one of: search, match, fullmatch\."),
    ],
)
def test_test_misuse_is_a_template_error(templar: Templar, expression: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        check(templar, expression)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("'nan' | float is nan", True),
        ("'nan' | float is isnan", True),  # Ansible's older name
        ("1.1 is nan", False),
        ("'bad' is nan", False),  # not a number: not NaN, and no error
        ("'http://searchengine.tld' is uri", True),
        ("'asldkfjhalsidfthjo' is uri", True),  # Ansible's check is lenient: the scheme may be implied
        ("'asldkfjhalsidfthjo' is uri(['http', 'https'])", False),
        ("'urn:isbn:9780307476463' is uri", True),
        ("'http://admin:secret@example.com/f?a=1' is url", True),
        ("'htp://searchengine.tld' is url", True),
        ("'htp://searchengine.tld' is url(['http', 'https'])", False),
        ("'file://etc/hosts' is url", True),
        ("'admin:secret@example.com' is url", False),
        ("'urn:isbn:9780307476463' is url", False),
        ("'urn:isbn:9780307476463' is urn", True),
        ("'ftps://admin:secret@example.com' is urn", False),
    ],
)
def test_nan_and_uri_tests_agree_with_ansible(templar: Templar, expression: str, expected: bool) -> None:
    assert check(templar, expression) is expected


@pytest.mark.parametrize("expression", ["'/' is is_dir", "'/' is directory", "'/' is is_abs", "'/' is is_mount",
                                        "'/' is is_same_file('/')", "'/etc/hostname' is is_file",
                                        "'/' is not is_link"])
def test_path_tests_answer_to_ansibles_old_is_names_too(templar: Templar, expression: str) -> None:
    assert check(templar, expression) is True


def test_timedout_holds_for_a_task_stopped_at_its_timeout(templar: Templar) -> None:
    assert check(templar, "r is timedout", r={"failed": True, "timedout": {"period": 1}}) is True
    assert check(templar, "r is timedout", r={"failed": True}) is False
