"""Packing a role directory into a reproducible tar+gzip archive: the same files always give the same digest.

Entries are sorted, every mtime is the same fixed date, owners are uid/gid 0 with no names, modes are 0644 (0755
for directories and executables), and the gzip header carries neither a name nor a time. Junk is left out:
version-control directories, editor and Python caches, backup files, and the install record
(``meta/.galaxy_install_info``), so an installed role re-packs to the digest it was installed from. A symlink
is kept when it points inside the role; one pointing outside, or a device, FIFO or socket, is an error.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import io
import os
import stat
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from runner.galaxy.errors import GalaxyError

FIXED_MTIME = 315532800  # 1980-01-01T00:00:00Z, the earliest date zip (and wheels) can record
COMPRESSION_LEVEL = 6  # the seed schema's push policy default
INSTALL_INFO = ".galaxy_install_info"
JUNK_NAMES = frozenset({
    ".git", ".hg", ".svn", ".bzr", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox",
    ".idea", ".vscode", ".DS_Store", "Thumbs.db", INSTALL_INFO,
})
JUNK_SUFFIXES = (".pyc", ".pyo", ".swp", ".swo", ".retry", ".orig", ".rej", "~")


@dataclass(frozen=True)
class RoleArchive:
    """A packed role: the gzip bytes and their digest (``sha256:...``)."""

    data: bytes
    digest: str
    entries: int

    @property
    def size(self) -> int:
        return len(self.data)


def sha256_digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def is_junk(name: str) -> bool:
    return name in JUNK_NAMES or name.endswith(JUNK_SUFFIXES)


def build_archive(role_dir: str | Path) -> RoleArchive:
    """Pack ``role_dir``; raises ``GalaxyError`` for content a role archive may not hold."""
    root = Path(role_dir)
    if not root.is_dir():
        raise GalaxyError(f"{root} is not a directory")
    return pack_entries(_entry(root, path) for path in _walk(root))


def pack_entries(entries: Iterable[tuple[tarfile.TarInfo, io.BytesIO | None]]) -> RoleArchive:
    """A reproducible tar+gzip of ``entries`` (each a header from ``fixed_info`` and its content)."""
    tar_bytes = io.BytesIO()
    count = 0
    with tarfile.open(fileobj=tar_bytes, mode="w", format=tarfile.PAX_FORMAT, encoding="utf-8") as tar:
        for info, content in entries:
            tar.addfile(info, content)
            count += 1
    packed = io.BytesIO()
    # filename="" and mtime=0 keep the gzip header free of anything that changes between builds.
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=0, compresslevel=COMPRESSION_LEVEL) as gz:
        gz.write(tar_bytes.getvalue())
    data = packed.getvalue()
    return RoleArchive(data, sha256_digest(data), count)


def fixed_info(name: str) -> tarfile.TarInfo:
    """A tar header for ``name`` with nothing that differs between machines or builds: fixed date, root owner."""
    info = tarfile.TarInfo(name)
    info.mtime, info.uid, info.gid, info.uname, info.gname = FIXED_MTIME, 0, 0, "", ""
    return info


def _walk(directory: Path) -> list[Path]:
    """Every path under ``directory`` that belongs in the archive, in a fixed (sorted) order."""
    found: list[Path] = []
    for child in sorted(directory.iterdir(), key=lambda path: path.name):
        if is_junk(child.name):
            continue
        found.append(child)
        if child.is_dir() and not child.is_symlink():
            found += _walk(child)
    return found


def _entry(root: Path, path: Path) -> tuple[tarfile.TarInfo, io.BytesIO | None]:
    info = fixed_info(path.relative_to(root).as_posix())
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        target = os.readlink(path)
        if os.path.isabs(target) or not _leads_inside(root, path):
            raise GalaxyError(f"{path} is a symlink to {target}, outside the role: a role archive keeps links "
                              "inside the role only")
        if _is_loop(path):
            raise GalaxyError(f"{path} is a symlink loop (-> {target}): it never reaches a file")
        info.type, info.linkname, info.mode = tarfile.SYMTYPE, target, 0o777
        return info, None
    if stat.S_ISDIR(mode):
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        return info, None
    if not stat.S_ISREG(mode):
        raise GalaxyError(f"{path} is neither a file, a directory nor a symlink: a role archive cannot hold it")
    content = path.read_bytes()
    info.size = len(content)
    info.mode = 0o755 if mode & 0o111 else 0o644
    return info, io.BytesIO(content)


def _leads_inside(root: Path, link: Path) -> bool:
    """Whether ``link`` ends inside ``root`` once every symlink on its way is followed (``sub/lnk -> .`` makes
    ``sub/lnk/../..`` the role's parent, though the text alone normalises to the role)."""
    real_root = Path(os.path.realpath(root))
    real_target = Path(os.path.realpath(link))
    return real_target == real_root or real_root in real_target.parents


def _is_loop(link: Path) -> bool:
    try:
        os.stat(link)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False
