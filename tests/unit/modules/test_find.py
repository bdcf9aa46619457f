"""find's criteria: quantities with units, thresholds, and name patterns (pure)."""

from __future__ import annotations

import locale
import re
from pathlib import Path

import pytest

from modules.find import _AGE_UNITS, _SIZE_UNITS, NameFilter, at_least, content_matches, parse_quantity


def test_ages_and_sizes_with_units() -> None:
    assert parse_quantity("30", _AGE_UNITS) == 30
    assert parse_quantity("2h", _AGE_UNITS) == 7200
    assert parse_quantity("-1W", _AGE_UNITS) == -604800
    assert parse_quantity("10k", _SIZE_UNITS) == 10240
    assert parse_quantity("1g", _SIZE_UNITS) == 1 << 30
    assert parse_quantity("2x", _SIZE_UNITS) is None and parse_quantity("soon", _AGE_UNITS) is None


def test_a_negative_threshold_means_at_most() -> None:
    assert at_least(10, None) and at_least(10, 10) and not at_least(9, 10)
    assert at_least(5, -5) and not at_least(6, -5)


def test_globs_with_excludes() -> None:
    names = NameFilter(["*.log", "*.txt"], ["debug*"], use_regex=False)
    assert names("app.log") and names("notes.txt") and not names("debug.log") and not names("app.conf")
    assert NameFilter([], None, use_regex=False)("anything")


def test_regular_expressions_match_from_the_start() -> None:
    names = NameFilter([r"app\.\d+"], [r".*\.gz$"], use_regex=True)
    assert names("app.1") and names("app.12.log") and not names("my-app.1") and not names("app.1.gz")
    assert NameFilter([], [], use_regex=True)("x")


@pytest.mark.parametrize(("encoding", "named"), [
    ("utf-8", "utf-8"),
    (None, f"{locale.getpreferredencoding(False).lower()} (Python default)"),
])
def test_a_file_that_does_not_decode_skips_its_path_in_ansible_core_2_21s_words(
        tmp_path: Path, encoding: str | None, named: str) -> None:
    path = tmp_path / "hello.gbk"
    path.write_bytes("你好世界".encode("gbk"))
    expected = f"Failed to decode the file {str(path)!r} with encoding: {named}"
    with pytest.raises(OSError, match=f"^{re.escape(expected)}$"):
        content_matches(str(path), re.compile("x"), whole_file=False, encoding=encoding)
