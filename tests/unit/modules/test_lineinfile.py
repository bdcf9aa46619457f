"""lineinfile's placement of a line, as Ansible's lineinfile places it (pure: lists of byte lines)."""

from __future__ import annotations

from modules._textfile import split_lines
from modules.lineinfile import ensure_absent, ensure_present

CONFIG = split_lines(b"a=1\nb=2\n[main]\nc=3\nb=4\n")


def test_lines_keep_their_ends_and_only_newline_splits() -> None:
    assert split_lines(b"x\r\ny\rz") == [b"x\r\n", b"y\rz"]
    assert split_lines(b"") == []


def test_regexp_replaces_the_last_match_or_the_first_with_firstmatch() -> None:
    assert ensure_present(CONFIG, "b=9", regexp="^b=") == (split_lines(b"a=1\nb=2\n[main]\nc=3\nb=9\n"),
                                                         "line replaced")
    assert ensure_present(CONFIG, "b=9", regexp="^b=", firstmatch=True)[0][1] == b"b=9\n"


def test_search_string_is_literal() -> None:
    lines, msg = ensure_present(split_lines(b"x.y=1\nxzy=2\n"), "x.y=3", search_string="x.y")
    assert (lines, msg) == ([b"x.y=3\n", b"xzy=2\n"], "line replaced")


def test_an_exact_line_is_found_without_regexp() -> None:
    assert ensure_present(CONFIG, "c=3") == (CONFIG, "")
    assert ensure_present(CONFIG, "c=3", regexp="^nothing") == (CONFIG, "")


def test_insertafter_and_insertbefore() -> None:
    assert ensure_present(CONFIG, "d=5", insertafter=r"^\[main\]")[0][3] == b"d=5\n"
    assert ensure_present(CONFIG, "d=5", insertbefore=r"^b=")[0][4] == b"d=5\n"
    assert ensure_present(CONFIG, "d=5", insertbefore=r"^b=", firstmatch=True)[0][1] == b"d=5\n"
    assert ensure_present(CONFIG, "d=5", insertbefore="BOF")[0][0] == b"d=5\n"
    assert ensure_present(CONFIG, "d=5", insertafter="nothing matches")[0][-1] == b"d=5\n"
    assert ensure_present(CONFIG, "d=5")[0][-1] == b"d=5\n"


def test_not_inserted_again_after_its_anchor() -> None:
    lines = split_lines(b"[main]\nd=5\n")
    assert ensure_present(lines, "d=5", insertafter=r"^\[main\]") == (lines, "")


def test_a_missing_final_newline_is_added_before_appending() -> None:
    assert ensure_present([b"last"], "new") == ([b"last\n", b"new\n"], "line added")
    assert ensure_present([b"[main]"], "x", insertafter=r"^\[main\]") == ([b"[main]\n", b"x\n"], "line added")


def test_backrefs_expand_groups_and_do_nothing_without_a_match() -> None:
    lines, msg = ensure_present(CONFIG, r"\g<1>=\2\2", regexp=r"^(c)=(\d)$", backrefs=True)
    assert lines[3] == b"c=33\n" and msg == "line replaced"
    assert ensure_present(CONFIG, r"\1", regexp="^zzz(.*)", backrefs=True) == (CONFIG, "")


def test_the_given_list_is_not_modified() -> None:
    original = list(CONFIG)
    ensure_present(CONFIG, "z=1", insertbefore="BOF")
    assert original == CONFIG


def test_absent_by_regexp_search_string_or_exact_line() -> None:
    assert ensure_absent(CONFIG, regexp="^b=") == (split_lines(b"a=1\n[main]\nc=3\n"), 2)
    assert ensure_absent(CONFIG, search_string="[main]") == (split_lines(b"a=1\nb=2\nc=3\nb=4\n"), 1)
    assert ensure_absent(CONFIG, line="c=3")[1] == 1
    assert ensure_absent(CONFIG, line="c") == (CONFIG, 0)
