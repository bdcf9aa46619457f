"""Role archives: built reproducibly, and unpacked only when every entry is safe (the malicious-archive corpus)."""

from __future__ import annotations

import gzip
import io
import os
import re
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from runner.galaxy.archive import FIXED_MTIME, build_archive
from runner.galaxy.errors import GalaxyError, UnsafeArchiveError
from runner.galaxy.extract import extract_archive
from runner.galaxy.installed import InstalledRole, install_archive, read_installed
from runner.galaxy.skeleton import init_role


def test_the_same_role_built_twice_gives_the_same_digest(tmp_path: Path) -> None:
    role = init_role("redis", tmp_path / "a", taskserv=True)
    first = build_archive(role)
    copy = init_role("redis", tmp_path / "b", taskserv=True)
    for path in copy.rglob("*"):  # other times, other permissions on the group: same content, same archive
        os.utime(path, (1_000_000, 1_000_000 + hash(path.name) % 1000))
    (copy / "tasks" / "main.yml").chmod(0o600)
    assert build_archive(copy).digest == first.digest == build_archive(role).digest


def test_archive_entries_are_sorted_owned_by_root_with_fixed_times_and_no_junk(tmp_path: Path) -> None:
    role = init_role("web", tmp_path)
    for junk in (".git/config", "tasks/main.yml~", "tasks/.main.yml.swp", "files/__pycache__/x.pyc",
                 "meta/.galaxy_install_info"):
        (role / junk).parent.mkdir(parents=True, exist_ok=True)
        (role / junk).write_text("junk")
    (role / "files" / "run.sh").write_text("#!/bin/sh\n")
    (role / "files" / "run.sh").chmod(0o750)
    (role / "files" / "link").symlink_to("run.sh")
    with tarfile.open(fileobj=io.BytesIO(build_archive(role).data), mode="r:gz") as tar:
        members = tar.getmembers()
    names = [member.name for member in members]
    assert names == sorted(names, key=lambda name: name.split("/")) and "tasks/main.yml" in names
    assert not [name for name in names if "junk" in name or name.endswith(("~", ".swp", ".pyc", "install_info"))
                or name.startswith(".git")]
    assert {(m.uid, m.gid, m.uname, m.gname, m.mtime) for m in members} == {(0, 0, "", "", FIXED_MTIME)}
    modes = {member.name: member.mode for member in members}
    assert modes["files/run.sh"] == 0o755 and modes["tasks/main.yml"] == 0o644 and modes["tasks"] == 0o755
    assert next(m for m in members if m.name == "files/link").linkname == "run.sh"


def test_a_symlink_out_of_the_role_is_not_packed(tmp_path: Path) -> None:
    role = init_role("web", tmp_path)
    (role / "files" / "passwd").symlink_to("/etc/passwd")
    with pytest.raises(GalaxyError, match="is a symlink to /etc/passwd, outside the role"):
        build_archive(role)


# --- the malicious-archive corpus ---------------------------------------------------------------------------

Entry = Callable[[tarfile.TarFile], None]


def _file(name: str, data: bytes = b"x") -> Entry:
    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return add


def _link(name: str, target: str, kind: bytes) -> Entry:
    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo(name)
        info.type, info.linkname = kind, target
        tar.addfile(info)
    return add


def _dir(name: str) -> Entry:
    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo(name)
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        tar.addfile(info)
    return add


def _special(name: str, kind: bytes) -> Entry:
    def add(tar: tarfile.TarFile) -> None:
        info = tarfile.TarInfo(name)
        info.type, info.devmajor, info.devminor = kind, 8, 0
        tar.addfile(info)
    return add


def archive_of(path: Path, *entries: Entry) -> Path:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as tar:
        for entry in entries:
            entry(tar)
    path.write_bytes(gzip.compress(raw.getvalue()))
    return path


CORPUS = {
    "path traversal": ([_file("tasks/main.yml"), _file("../../evil.sh")],
                       "path traversal in '../../evil.sh'"),
    "absolute path": ([_file("/etc/cron.d/evil")], "absolute path '/etc/cron.d/evil'"),
    "symlink escape": ([_link("files/passwd", "/etc/passwd", tarfile.SYMTYPE)],
                       "symlink escape: 'files/passwd' points outside the role"),
    "relative symlink escape": ([_link("files/up", "../../..", tarfile.SYMTYPE)],
                                "symlink escape: 'files/up' points outside the role"),
    "write through a symlink": ([_link("files", ".", tarfile.SYMTYPE), _file("files/x")],
                                "symlink escape: 'files/x' is written through the symlink"),
    "hardlink escape": ([_link("files/shadow", "../../etc/shadow", tarfile.LNKTYPE)],
                        "hardlink escape: 'files/shadow' points outside the role"),
    "hardlink to nothing inside": ([_link("files/shadow", "etc/shadow", tarfile.LNKTYPE)],
                                   "hardlink escape: 'files/shadow' links to 'etc/shadow'"),
    "device node": ([_special("files/sda", tarfile.BLKTYPE)], "device node 'files/sda'"),
    "character device": ([_special("files/null", tarfile.CHRTYPE)], "device node"),
    "fifo": ([_special("files/pipe", tarfile.FIFOTYPE)], "device node 'files/pipe'"),
    "oversized": ([_file("files/big", b"\0" * 4096)], "oversized: more than 1024 bytes"),
    "duplicate": ([_file("tasks/main.yml"), _file("tasks/main.yml")], "'tasks/main.yml' appears twice"),
    # Links judged by where they lead once the archive's other links are followed, not by their text.
    "symlink chain to the parent": ([_link("sub/lnk", ".", tarfile.SYMTYPE),
                                     _link("p", "sub/lnk/../..", tarfile.SYMTYPE)],
                                    "symlink escape: 'p' points outside the role (-> sub/lnk/../.., which leads "
                                    "to ..)"),
    "symlink chain out of the role": ([_link("sub/lnk", ".", tarfile.SYMTYPE),
                                       _link("x", "sub/lnk/../../outside", tarfile.SYMTYPE)],
                                      "symlink escape: 'x' points outside the role (-> sub/lnk/../../outside, "
                                      "which leads to ../outside)"),
    "symlink chain through a later link": ([_link("x", "sub/lnk/../../outside", tarfile.SYMTYPE),
                                            _link("sub/lnk", ".", tarfile.SYMTYPE)],
                                           "symlink escape: 'x' points outside the role"),
    "symlink through a symlink to the root": ([_link("up", "..", tarfile.SYMTYPE),
                                               _link("files/deep", "../up/etc", tarfile.SYMTYPE)],
                                              "symlink escape: 'up' points outside the role (-> .., which leads "
                                              "to ..)"),
    "symlink loop": ([_link("a", "b", tarfile.SYMTYPE), _link("b", "a", tarfile.SYMTYPE)],
                     "symlink loop: 'a' (-> b) does not reach a file within 40 links"),
    "hardlink through a symlink chain": ([_file("etc/passwd"), _link("sub/lnk", ".", tarfile.SYMTYPE),
                                          _link("h", "sub/lnk/../../etc/passwd", tarfile.LNKTYPE)],
                                         "hardlink escape: 'h' points outside the role (-> sub/lnk/../../etc/passwd, "
                                         "which leads to ../etc/passwd)"),
    "absolute hardlink": ([_link("files/shadow", "/etc/shadow", tarfile.LNKTYPE)],
                          "hardlink escape: 'files/shadow' points outside the role (-> /etc/shadow)"),
    "dot-dot inside a name": ([_file("files/../../x")], "path traversal in 'files/../../x'"),
    "dot-dot that stays inside": ([_file("files/../tasks/main.yml")], "path traversal in 'files/../tasks/main.yml'"),
    "a link replaces a directory": ([_file("files/a/x"), _link("files/a", "../..", tarfile.SYMTYPE)],
                                    "'files/a' would replace the directory that earlier entries were written in"),
    "a declared directory replaced by a link": ([_dir("files"), _link("files", ".", tarfile.SYMTYPE)],
                                                "'files' appears twice"),
    "a directory replaced by a file": ([_file("files/a/x"), _file("files/a")],
                                       "'files/a' would replace the directory"),
}


@pytest.mark.parametrize("case", list(CORPUS))
def test_each_malicious_archive_is_refused_with_its_message(case: str, tmp_path: Path) -> None:
    entries, message = CORPUS[case]
    archive = archive_of(tmp_path / "evil.tar.gz", *entries)
    with pytest.raises(UnsafeArchiveError) as raised:
        extract_archive(archive, tmp_path / "out", max_size=1024)
    assert f"refusing role archive {archive}: {message}" in str(raised.value)
    assert not (tmp_path / "out").exists() and not (tmp_path.parent / "evil.sh").exists()


def test_links_that_stay_inside_through_other_links_are_unpacked(tmp_path: Path) -> None:
    archive = archive_of(tmp_path / "ok.tar.gz", _file("files/data", b"data"), _link("sub/lnk", ".", tarfile.SYMTYPE),
                         _link("files/via", "../sub/lnk/../files/data", tarfile.SYMTYPE),
                         _link("top", "sub/lnk/..", tarfile.SYMTYPE), _link("dangling", "files/later", tarfile.SYMTYPE),
                         _link("files/hard", "sub/lnk/../files/data", tarfile.LNKTYPE))
    extract_archive(archive, tmp_path / "out", max_size=1024)
    assert (tmp_path / "out" / "files" / "via").read_bytes() == b"data"
    assert (tmp_path / "out" / "files" / "hard").read_bytes() == b"data"
    assert (tmp_path / "out" / "top").resolve() == (tmp_path / "out").resolve()


def test_a_symlink_chain_out_of_the_role_is_not_packed(tmp_path: Path) -> None:
    role = init_role("web", tmp_path)
    (role / "sub").mkdir()
    (role / "sub" / "lnk").symlink_to(".")
    (role / "x").symlink_to("sub/lnk/../../outside")
    with pytest.raises(GalaxyError, match=re.escape("x is a symlink to sub/lnk/../../outside, outside the role")):
        build_archive(role)


def test_a_symlink_loop_is_not_packed(tmp_path: Path) -> None:
    role = init_role("web", tmp_path)
    (role / "files" / "a").symlink_to("b")
    (role / "files" / "b").symlink_to("a")
    with pytest.raises(GalaxyError, match="a is a symlink loop"):
        build_archive(role)


def test_a_gzip_bomb_is_refused_before_it_is_unpacked(tmp_path: Path) -> None:
    # 64 MiB of zeros packs to a few tens of KiB: the declared size stops it, not the packed one.
    bomb = archive_of(tmp_path / "bomb.tar.gz", _file("files/zeros", b"\0" * (64 << 20)))
    assert bomb.stat().st_size < 1 << 20
    with pytest.raises(UnsafeArchiveError, match="oversized"):
        extract_archive(bomb, tmp_path / "out", max_size=1 << 20)


def test_a_refused_archive_leaves_the_installed_role_as_it_was(tmp_path: Path) -> None:
    roles = tmp_path / "roles"
    good = tmp_path / "good.tar.gz"
    good.write_bytes(build_archive(init_role("web", tmp_path / "src")).data)
    record = InstalledRole("web", roles / "web", "1.0.0", "oci://reg.example.com/team/web", "sha256:" + "1" * 64)
    install_archive(good, roles, record, max_size=1 << 20)
    before = sorted(path.relative_to(roles).as_posix() for path in roles.rglob("*"))
    evil = archive_of(tmp_path / "evil.tar.gz", _file("tasks/main.yml", b"- debug: {msg: evil}\n"),
                      _file("../escape"))
    with pytest.raises(UnsafeArchiveError, match="path traversal"):
        install_archive(evil, roles, InstalledRole("web", roles / "web", "6.6.6"), max_size=1 << 20)
    assert sorted(path.relative_to(roles).as_posix() for path in roles.rglob("*")) == before
    assert read_installed(roles / "web") == record
    assert "evil" not in (roles / "web" / "tasks" / "main.yml").read_text()
