"""Unpacking a role archive, refusing anything that could write outside the role or is not role content.

Every entry is checked before anything is written: no absolute path, no ``..`` part, no path through a symlink,
no name twice (nor a link or file where earlier entries put a directory), no device node or FIFO, and at most
``max_size`` bytes in all. Links are judged by where they really lead: every symlink is resolved, once the whole
archive is read, through the other symlinks of the archive (``linkwalk``), and every hardlink through those
before it, and must end inside the role. The first problem ends the unpacking with an ``UnsafeArchiveError``
naming the archive, the entry and its target. Extraction then runs with Python's ``data`` filter as a second
guard only: these checks never rely on it. Callers unpack into a new directory and move it into place only when
this succeeds, so a refused archive leaves nothing behind.
"""

from __future__ import annotations

import posixpath
import tarfile
from collections.abc import Callable
from pathlib import Path

from runner.galaxy.errors import UnsafeArchiveError
from runner.galaxy.linkwalk import MAX_LINK_HOPS, LinkEscape, LinkLoop, LinkTable

DEFAULT_MAX_SIZE = 100 * 1024 * 1024


class _Refused(Exception):
    """An entry that may not be unpacked; ``check_archive`` adds the archive's name to the message."""


def check_archive(archive: Path, max_size: int = DEFAULT_MAX_SIZE, label: str | None = None) -> None:
    """Raise ``UnsafeArchiveError`` for the first entry that may not be unpacked.

    ``label`` names the archive in messages (a role reference); the file's path by default.
    """
    name = label or str(archive)
    if archive.stat().st_size > max_size:
        raise oversized(max_size, f"{archive.stat().st_size} bytes packed", name)
    try:
        with tarfile.open(archive, mode="r:gz") as tar:
            _ArchiveCheck(max_size).run(tar)
    except _Refused as exc:
        raise _refuse(name, str(exc)) from None
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise _refuse(name, f"not a tar+gzip archive ({exc})") from None


def extract_archive(archive: Path, destination: Path, max_size: int = DEFAULT_MAX_SIZE,
                    label: str | None = None, only: Callable[[str], bool] | None = None) -> None:
    """Check ``archive``, then unpack it into ``destination`` (created; it must not exist yet).

    ``only`` picks the entries to unpack by name (reading a role's metadata needs ``meta/`` alone); every entry
    is checked all the same.
    """
    check_archive(archive, max_size, label)
    destination.mkdir(parents=True)
    with tarfile.open(archive, mode="r:gz") as tar:
        members = [member for member in tar if only(member.name)] if only is not None else None
        if not hasattr(tarfile, "data_filter"):  # Python before 3.11.4: the checks above are the guard
            tar.extractall(destination, members=members)
            return
        try:
            tar.extractall(destination, members=members, filter="data")
        except tarfile.FilterError as exc:  # the second guard caught what the checks above let through
            raise _refuse(label or str(archive), f"unsafe entry ({exc})") from None


def _refuse(archive: str, problem: str) -> UnsafeArchiveError:
    return UnsafeArchiveError(f"refusing role archive {archive}: {problem}")


def oversized(max_size: int, detail: str, archive: str) -> UnsafeArchiveError:
    return _refuse(archive, _oversized(max_size, detail))


def _oversized(max_size: int, detail: str = "") -> str:
    detail = f"{detail}, " if detail else ""
    return f"oversized: {detail}more than {max_size} bytes (the limit is [galaxy] max_archive_size)"


class _ArchiveCheck:
    """One pass over an archive's entries, then the judgement of its symlinks against all of them."""

    def __init__(self, max_size: int):
        self.max_size = max_size
        self.seen: dict[str, tarfile.TarInfo] = {}
        self.directories: set[str] = set()  # every directory an entry lives in, declared or not
        self.links = LinkTable()
        self.symlinks: list[tuple[tarfile.TarInfo, str]] = []

    def run(self, tar: tarfile.TarFile) -> None:
        total = 0
        # Entry by entry, so an oversized archive is refused before its data is read (a gzip bomb stays packed).
        while (member := tar.next()) is not None:
            name = _checked_name(member.name)
            total += member.size
            if total > self.max_size:
                raise _Refused(_oversized(self.max_size))
            self._check_place(member, name)
            self._check_kind(member, name)
            self.seen[name] = member
            self.directories.update(_ancestors(name))
        # A symlink's target may pass through links that come later in the archive: judge each against all.
        for member, name in self.symlinks:
            self._check_symlink(member, name)

    def _check_place(self, member: tarfile.TarInfo, name: str) -> None:
        if name in self.seen:
            raise _Refused(f"'{member.name}' appears twice")
        if name in self.directories and not member.isdir():
            raise _Refused(f"'{member.name}' would replace the directory that earlier entries were written in")
        for parent in _ancestors(name):
            earlier = self.seen.get(parent)
            if earlier is not None and earlier.issym():
                raise _Refused(f"symlink escape: '{member.name}' is written through the symlink '{parent}'")

    def _check_kind(self, member: tarfile.TarInfo, name: str) -> None:
        if member.isdev() or member.isfifo():
            raise _Refused(f"device node '{member.name}' (a role holds files, directories and symlinks only)")
        if member.issym():
            if posixpath.isabs(member.linkname):
                raise _Refused(f"symlink escape: '{member.name}' points outside the role (-> {member.linkname})")
            self.links.add(name, member.linkname)
            self.symlinks.append((member, name))
        elif member.islnk():
            self._check_hardlink(member, name)
        elif not (member.isreg() or member.isdir()):
            raise _Refused(f"'{member.name}' has an entry type a role cannot hold ({member.type!r})")

    def _check_hardlink(self, member: tarfile.TarInfo, name: str) -> None:
        # Unpacking links to the target's path as the filesystem resolves it then: through the symlinks before it.
        if posixpath.isabs(member.linkname):
            raise _Refused(f"hardlink escape: '{member.name}' points outside the role (-> {member.linkname})")
        try:
            target = self.links.resolve(member.linkname)
        except LinkEscape as escape:
            raise _Refused(f"hardlink escape: '{member.name}' points outside the role (-> {member.linkname}, "
                           f"which leads to {escape.target})") from None
        except LinkLoop:
            raise _Refused(_loop(member, "hardlink")) from None
        if target not in self.seen or not self.seen[target].isreg():
            raise _Refused(f"hardlink escape: '{member.name}' links to '{member.linkname}', "
                           "which is no file earlier in the archive")

    def _check_symlink(self, member: tarfile.TarInfo, name: str) -> None:
        try:
            self.links.resolve(posixpath.join(posixpath.dirname(name), member.linkname))
        except LinkEscape as escape:
            raise _Refused(f"symlink escape: '{member.name}' points outside the role (-> {member.linkname}, "
                           f"which leads to {escape.target})") from None
        except LinkLoop:
            raise _Refused(_loop(member, "symlink")) from None


def _loop(member: tarfile.TarInfo, kind: str) -> str:
    return (f"{kind} loop: '{member.name}' (-> {member.linkname}) does not reach a file within "
            f"{MAX_LINK_HOPS} links")


def _ancestors(name: str) -> list[str]:
    found = []
    parent = posixpath.dirname(name)
    while parent:
        found.append(parent)
        parent = posixpath.dirname(parent)
    return found


def _checked_name(name: str) -> str:
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise _Refused(f"absolute path '{name}'")
    parts = name.replace("\\", "/").split("/")
    if ".." in parts:
        raise _Refused(f"path traversal in '{name}' ('..' leads outside the role)")
    return posixpath.normpath(name)
