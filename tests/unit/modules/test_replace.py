"""replace's substitution, within the after/before section (pure: text in, text out)."""

from __future__ import annotations

import re

import pytest

from modules.replace import SectionNotFound, replace_text


def test_every_match_multiline_with_groups() -> None:
    assert replace_text("a 1\nb 2\n", r"^(\w) (\d)$", r"\2=\1") == ("1=a\n2=b\n", 2)


def test_no_match_or_the_same_text_is_no_change() -> None:
    assert replace_text("abc\n", "x", "y") == ("abc\n", 0)
    assert replace_text("abc\n", "b", "b") == ("abc\n", 0)


def test_only_between_after_and_before() -> None:
    text = "x=1\n[s]\nx=1\n[t]\nx=1\n"
    assert replace_text(text, "x=1", "x=2", after=r"\[s\]", before=r"\[t\]") == ("x=1\n[s]\nx=2\n[t]\nx=1\n", 1)
    assert replace_text(text, "x=1", "x=2", after=r"\[t\]") == ("x=1\n[s]\nx=1\n[t]\nx=2\n", 1)
    assert replace_text(text, "x=1", "x=2", before=r"\[s\]") == ("x=2\n[s]\nx=1\n[t]\nx=1\n", 1)


def test_a_section_that_matches_nothing_and_a_bad_expression() -> None:
    with pytest.raises(SectionNotFound):
        replace_text("abc", "a", "b", after="zzz")
    with pytest.raises(re.error):
        replace_text("abc", "(", "b")


def test_its_diff_is_headed_by_the_path_alone(tmp_path) -> None:
    # As ansible-core's replace (lineinfile and blockinfile say "PATH (content)").
    from modules._utils import Module
    from modules.replace import ARGUMENT_SPEC, run

    path = tmp_path / "f.txt"
    path.write_text("foo")
    params = {key: spec.get("default") for key, spec in ARGUMENT_SPEC.items()}
    params.update(path=str(path), regexp="^foo$", replace="bar")
    result = run(Module(params, check_mode=True, diff_mode=True))
    assert result["changed"] is True
    assert (result["diff"]["before_header"], result["diff"]["after_header"]) == (str(path), str(path))
    assert (result["diff"]["before"], result["diff"]["after"]) == ("foo", "bar")
