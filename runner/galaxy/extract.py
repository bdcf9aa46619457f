"""Unpacking a role archive, refusing anything that could write outside the role or is not role content.

Every entry is checked before anything is written: no absolute path, no ``..`` part, no path through a symlink,
symlinks and hardlinks only to places inside the role, no device node or FIFO, no name twice, and at most
``max_size`` bytes in all. The first problem ends the unpacking with an ``UnsafeArchiveError`` naming the entry.
Extraction then runs with Python's ``data`` filter as a second guard. Callers unpack into a new directory and
move it into place only when this succeeds, so a refused archive leaves nothing behind.
"""

from __future__ import annotations

import posixpath
import tarfile
from pathlib import Path

from runner.galaxy.errors import UnsafeArchiveError

DEFAULT_MAX_SIZE = 100 * 1024 * 1024


def _refuse(problem: str) -> UnsafeArchiveError:
    return UnsafeArchiveError(f"refusing role archive: {problem}")


def check_archive(archive: Path, max_size: int = DEFAULT_MAX_SIZE) -> None:
    """Raise ``UnsafeArchiveError`` for the first entry that may not be unpacked."""
    if archive.stat().st_size > max_size:
        raise oversized(max_size, f"{archive.stat().st_size} bytes packed")
    try:
        with tarfile.open(archive, mode="r:gz") as tar:
            _check_entries(tar, max_size)
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise _refuse(f"not a tar+gzip archive ({exc})") from None


def extract_archive(archive: Path, destination: Path, max_size: int = DEFAULT_MAX_SIZE) -> None:
    """Check ``archive``, then unpack it into ``destination`` (created; it must not exist yet)."""
    check_archive(archive, max_size)
    destination.mkdir(parents=True)
    with tarfile.open(archive, mode="r:gz") as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(destination, filter="data")
        else:  # Python before 3.11.4: the checks above are the guard
            tar.extractall(destination)


def oversized(max_size: int, detail: str = "") -> UnsafeArchiveError:
    detail = f"{detail}, " if detail else ""
    return _refuse(f"oversized: {detail}more than {max_size} bytes (the limit is [galaxy] max_archive_size)")


def _check_entries(tar: tarfile.TarFile, max_size: int) -> None:
    seen: dict[str, tarfile.TarInfo] = {}
    total = 0
    # Entry by entry, so an oversized archive is refused before its data is read (a gzip bomb stays packed).
    while (member := tar.next()) is not None:
        name = _checked_name(member.name)
        total += member.size
        if total > max_size:
            raise oversized(max_size)
        if name in seen:
            raise _refuse(f"'{member.name}' appears twice")
        _check_parents(name, seen)
        _check_kind(member, name, seen)
        seen[name] = member


def _checked_name(name: str) -> str:
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise _refuse(f"absolute path '{name}'")
    parts = name.replace("\\", "/").split("/")
    if ".." in parts:
        raise _refuse(f"path traversal in '{name}' ('..' leads outside the role)")
    return posixpath.normpath(name)


def _check_parents(name: str, seen: dict[str, tarfile.TarInfo]) -> None:
    parent = posixpath.dirname(name)
    while parent:
        earlier = seen.get(parent)
        if earlier is not None and earlier.issym():
            raise _refuse(f"symlink escape: '{name}' is written through the symlink '{parent}'")
        parent = posixpath.dirname(parent)


def _check_kind(member: tarfile.TarInfo, name: str, seen: dict[str, tarfile.TarInfo]) -> None:
    if member.isdev() or member.isfifo():
        raise _refuse(f"device node '{member.name}' (a role holds files, directories and symlinks only)")
    if member.issym():
        target = posixpath.normpath(posixpath.join(posixpath.dirname(name), member.linkname))
        if posixpath.isabs(member.linkname) or target == ".." or target.startswith("../"):
            raise _refuse(f"symlink escape: '{member.name}' points outside the role (-> {member.linkname})")
    elif member.islnk():
        target = posixpath.normpath(member.linkname)
        if posixpath.isabs(member.linkname) or target == ".." or target.startswith("../"):
            raise _refuse(f"hardlink escape: '{member.name}' points outside the role (-> {member.linkname})")
        if target not in seen or not seen[target].isreg():
            raise _refuse(f"hardlink escape: '{member.name}' links to '{member.linkname}', "
                          "which is no file earlier in the archive")
    elif not (member.isreg() or member.isdir()):
        raise _refuse(f"'{member.name}' has an entry type a role cannot hold ({member.type!r})")

