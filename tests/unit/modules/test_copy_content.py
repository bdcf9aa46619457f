"""copy with ``content``: the content is staged on the host as the file it is copied from, which the result names
(``src``, ``.source`` with dest's suffix, as ansible-core's upload), and which is gone afterwards."""

from __future__ import annotations

import os
from pathlib import Path

from modules._utils import Module
from modules.copy import ARGUMENT_SPEC, run


def copy(tmp_path: Path, **params: object) -> dict:
    values = {key: spec.get("default") for key, spec in ARGUMENT_SPEC.items()}
    values.update(params)
    return run(Module(values, tmpdir=str(tmp_path / "tmp")))


def test_written_content_names_its_staged_source(tmp_path: Path) -> None:
    (tmp_path / "tmp").mkdir()
    dest = tmp_path / "out" / "motd.txt"
    dest.parent.mkdir()
    result = copy(tmp_path, content="foo", dest=str(dest))
    assert result["changed"] is True and dest.read_text() == "foo"
    src = Path(result["src"])
    assert src.name == ".source.txt" and src.is_relative_to(tmp_path / "tmp") and not src.exists()
    assert os.listdir(tmp_path / "tmp") == []  # nothing left of the staging
    assert oct(dest.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def test_unchanged_content_has_no_source(tmp_path: Path) -> None:
    (tmp_path / "tmp").mkdir()
    dest = tmp_path / "motd"
    dest.write_text("foo")
    result = copy(tmp_path, content="foo", dest=str(dest))
    assert result["changed"] is False and "src" not in result


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
