"""blockinfile's placement of a marked block (pure: bytes in, bytes out)."""

from __future__ import annotations

from modules.blockinfile import Block, update_block

BLOCK = Block("# {mark} lab", "BEGIN", "END", "one\ntwo")
MARKED = b"# BEGIN lab\none\ntwo\n# END lab\n"


def test_markers_and_a_final_newline() -> None:
    assert BLOCK.lines == [b"# BEGIN lab\n", b"one\n", b"two\n", b"# END lab\n"]
    assert Block("<!-- {mark} -->", "start", "stop", "").lines == []


def test_appended_to_a_file_or_a_missing_one() -> None:
    assert update_block(b"head", BLOCK) == b"head\n" + MARKED
    assert update_block(None, BLOCK) == MARKED


def test_an_existing_block_is_replaced_in_place() -> None:
    text = b"a\n" + MARKED + b"z\n"
    assert update_block(text, Block("# {mark} lab", "BEGIN", "END", "three")) == (
        b"a\n# BEGIN lab\nthree\n# END lab\nz\n")
    assert update_block(text, BLOCK) == text


def test_removed_with_its_markers() -> None:
    assert update_block(b"a\n" + MARKED + b"z\n", BLOCK, present=False) == b"a\nz\n"
    assert update_block(b"a\n" + MARKED, Block("# {mark} lab", "BEGIN", "END", "")) == b"a\n"


def test_insert_positions() -> None:
    text = b"x\nanchor\ny\nanchor\n"
    assert update_block(text, BLOCK, insertafter="^anchor") == b"x\nanchor\ny\nanchor\n" + MARKED
    assert update_block(text, BLOCK, insertbefore="^anchor") == b"x\nanchor\ny\n" + MARKED + b"anchor\n"
    assert update_block(text, BLOCK, insertbefore="BOF") == MARKED + text
    assert update_block(text, BLOCK, insertafter="nothing") == text + MARKED


def test_a_multiline_pattern_is_searched_across_lines() -> None:
    text = b"LISTENER =\n  (SID_LIST =\n  )\n"
    assert update_block(text, BLOCK, insertafter=r"(?m)LISTENER =\n.*\(SID_LIST =") == (
        b"LISTENER =\n  (SID_LIST =\n" + MARKED + b"  )\n")


def test_blank_lines_around_the_block() -> None:
    assert update_block(b"a\nb\n", BLOCK, insertbefore="^b", prepend_newline=True, append_newline=True) == (
        b"a\n\n" + MARKED + b"\nb\n")
    assert update_block(b"", BLOCK, prepend_newline=True, append_newline=True) == MARKED
