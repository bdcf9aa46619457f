"""archive and unarchive on local files: reading tar and zip members alike, safe names, strip-components,
include/exclude, and an archive recognised as current by content (no host needed)."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from modules._archives import ArchiveError, normalise, open_archive, read_members
from modules.archive import Plan, common_root, existing_members, expand_paths, write_archive
from modules.unarchive import selected, strip_components


def test_member_names_are_kept_inside_the_destination() -> None:
    assert normalise("./app/bin/") == "app/bin" and normalise("a//b") == "a/b"
    for bad in ("/etc/passwd", "../x", "a/../../x"):
        with pytest.raises(ArchiveError, match="outside the destination"):
            normalise(bad)


def test_strip_components_is_the_only_extra_option() -> None:
    assert strip_components([]) == 0
    assert strip_components(["--strip-components=2"]) == 2
    assert strip_components(["--strip-components", "1"]) == 1
    with pytest.raises(ValueError, match="only --strip-components is understood"):
        strip_components(["-o"])
    with pytest.raises(ValueError, match="needs a number"):
        strip_components(["--strip-components=x"])


def test_include_and_exclude_are_globs_on_member_names() -> None:
    assert selected("app/bin/tool", ["*/bin/*"], [])
    assert not selected("app/README", ["*/bin/*"], [])
    assert not selected("app/README", [], ["*README"])
    assert selected("app/README", [], [])


def test_tar_and_zip_members_read_alike(tmp_path: Path) -> None:
    tar_path, zip_path = tmp_path / "a.tar.xz", tmp_path / "a.zip"
    with tarfile.open(tar_path, "w:xz") as archive:
        info = tarfile.TarInfo("top/file")
        info.size, info.mode = 3, 0o640
        archive.addfile(info, io.BytesIO(b"abc"))
        link = tarfile.TarInfo("top/link")
        link.type, link.linkname = tarfile.SYMTYPE, "file"
        archive.addfile(link)
    with zipfile.ZipFile(zip_path, "w") as archive:
        entry = zipfile.ZipInfo("top/file")
        entry.external_attr = 0o100640 << 16
        archive.writestr(entry, b"abc")
    for path in (tar_path, zip_path):
        reader, members = read_members(str(path))
        assert members["top/file"].kind == "file" and members["top/file"].mode == 0o640
        assert members["top/file"].checksum() == "a9993e364706816aba3e25717850c26c9cd0d89d"
        reader.close()
    assert open_archive(str(tar_path)).handler == "TgzArchive" and open_archive(str(zip_path)).handler == "ZipArchive"
    (tmp_path / "plain").write_text("no")
    with pytest.raises(ArchiveError):
        open_archive(str(tmp_path / "plain"))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "data" / "sub").mkdir(parents=True)
    (tmp_path / "data" / "one.txt").write_text("one\n")
    (tmp_path / "data" / "sub" / "two.log").write_text("two\n")
    os.symlink("one.txt", tmp_path / "data" / "link")
    return tmp_path


def test_globs_and_the_common_root(tree: Path) -> None:
    expanded, globby = expand_paths([f"{tree}/data/*.txt", f"{tree}/data/sub"])
    assert expanded == [f"{tree}/data/one.txt", f"{tree}/data/sub"] and globby
    assert common_root(expanded) == f"{tree}/data/"
    assert common_root([f"{tree}/data"]) == f"{tree}/"


@pytest.mark.parametrize("fmt", ["gz", "bz2", "xz", "tar", "zip"])
def test_an_archive_is_current_until_content_changes(tree: Path, fmt: str) -> None:
    dest = str(tree / f"out.{fmt}")
    plan = Plan([f"{tree}/data"], f"{tree}/", fmt, ["*.log"])
    assert plan.names() == ["data", "data/sub", "data/link", "data/one.txt"]  # directories first, then files
    write_archive(dest, fmt, plan.entries)
    assert plan.matches(existing_members(dest))
    os.utime(tree / "data" / "one.txt", (0, 0))  # a new timestamp alone does not matter
    assert Plan([f"{tree}/data"], f"{tree}/", fmt, ["*.log"]).matches(existing_members(dest))
    (tree / "data" / "one.txt").write_text("uno\n")
    assert not Plan([f"{tree}/data"], f"{tree}/", fmt, ["*.log"]).matches(existing_members(dest))
    assert existing_members(str(tree / "missing")) is None
