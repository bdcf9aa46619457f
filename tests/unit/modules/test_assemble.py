"""assemble's joining of fragments, as Ansible's assemble joins them (local files, no host needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from modules.assemble import assemble_fragments


@pytest.fixture
def fragments(tmp_path: Path) -> Path:
    (tmp_path / "20-b").write_text("b\n")
    (tmp_path / "10-a").write_text("a")  # no final newline: one is added before the next fragment
    (tmp_path / ".hidden").write_text("h\n")
    (tmp_path / "sub").mkdir()
    return tmp_path


def test_name_order_with_newlines_between(fragments: Path) -> None:
    assert assemble_fragments(str(fragments)) == b"h\na\nb\n"
    assert assemble_fragments(str(fragments), ignore_hidden=True) == b"a\nb\n"


def test_delimiter_with_escapes_and_regexp(fragments: Path) -> None:
    assert assemble_fragments(str(fragments), delimiter="--", regexp=r"^\d") == b"a\n--\nb\n"
    assert assemble_fragments(str(fragments), delimiter="#\\n", regexp="-") == b"a\n#\nb\n"
