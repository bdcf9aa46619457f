"""Reading tar (plain, gz, bz2, xz) and zip archives the same way, for archive and unarchive.

An archive is a list of ``Member``s: a normalised relative name, a kind (file, directory, link), a mode, and for a
file a way to read its content. Both modules compare members with what is on disk (or in another archive) by
content checksum, so an unchanged tree or archive is recognised without rewriting anything.
"""

import hashlib
import stat
import tarfile
import time
import zipfile

BLOCK = 1 << 16


class ArchiveError(Exception):
    """Not an archive this module can read, or a member that must not be extracted."""


class Member(object):
    def __init__(self, name, kind, mode, size=0, target=None, uid=None, gid=None, owner=None, group=None,
                 mtime=None, opener=None):
        self.name = name  # relative, '/'-separated, without a trailing '/'
        self.kind = kind  # file, directory or link
        self.mode = mode
        self.size = size
        self.target = target  # what a link points to
        self.uid, self.gid, self.owner, self.group = uid, gid, owner, group
        self.mtime = mtime
        self._opener = opener

    def open(self):
        """The content as a binary file object (files only)."""
        return self._opener()

    def checksum(self):
        if self.kind != "file":
            return None
        digest = hashlib.sha1()
        with self.open() as handle:
            for block in iter(lambda: handle.read(BLOCK), b""):
                digest.update(block)
        return digest.hexdigest()

    def signature(self):
        """What two members must share to be the same entry: kind, content, link target and permissions."""
        return (self.kind, self.checksum(), self.target, self.mode)


def normalise(name):
    """A member name as a safe relative path; ArchiveError for absolute names and names leaving the root."""
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".")]
    if name.startswith("/") or ".." in parts:
        raise ArchiveError("refusing to extract %s: it would land outside the destination" % name)
    return "/".join(parts)


class TarReader(object):
    handler = "TgzArchive"

    def __init__(self, path):
        try:
            self.archive = tarfile.open(path, "r:*")
        except (tarfile.TarError, EOFError, OSError) as exc:
            raise ArchiveError("%s is not a tar archive: %s" % (path, exc))

    def members(self):
        found = []
        for info in self.archive.getmembers():
            name = normalise(info.name)
            if not name:
                continue
            common = {"uid": info.uid, "gid": info.gid, "owner": info.uname or None, "group": info.gname or None,
                      "mtime": info.mtime}
            if info.isdir():
                found.append(Member(name, "directory", info.mode & 0o7777, **common))
            elif info.issym():
                found.append(Member(name, "link", 0o777, target=info.linkname, **common))
            elif info.isfile() or info.islnk():
                # A hard link's content is its target's; it is extracted as a file of its own.
                found.append(Member(name, "file", info.mode & 0o7777, info.size, opener=self._opener(info),
                                    **common))
        return found

    def _opener(self, info):
        return lambda: self.archive.extractfile(info)

    def close(self):
        self.archive.close()


class ZipReader(object):
    handler = "ZipArchive"

    def __init__(self, path):
        try:
            self.archive = zipfile.ZipFile(path)
        except (zipfile.BadZipfile, OSError) as exc:
            raise ArchiveError("%s is not a zip archive: %s" % (path, exc))

    def members(self):
        found = []
        for info in self.archive.infolist():
            name = normalise(info.filename)
            if not name:
                continue
            unix_mode = info.external_attr >> 16
            mtime = _zip_time(info)
            if info.filename.endswith("/") or stat.S_ISDIR(unix_mode):
                found.append(Member(name, "directory", stat.S_IMODE(unix_mode) or 0o755, mtime=mtime))
            elif stat.S_ISLNK(unix_mode):
                target = self.archive.read(info).decode("utf-8", "surrogateescape")
                found.append(Member(name, "link", 0o777, target=target, mtime=mtime))
            else:
                found.append(Member(name, "file", stat.S_IMODE(unix_mode) or 0o644, info.file_size, mtime=mtime,
                                    opener=self._opener(info)))
        return found

    def _opener(self, info):
        return lambda: self.archive.open(info)

    def close(self):
        self.archive.close()


def _zip_time(info):
    try:
        return time.mktime((*info.date_time, 0, 0, -1))
    except (OverflowError, ValueError):
        return None


def open_archive(path):
    """A reader for the archive at ``path`` (tar of any compression, or zip); ArchiveError otherwise."""
    if zipfile.is_zipfile(path):
        return ZipReader(path)
    try:
        readable = tarfile.is_tarfile(path)
    except (OSError, EOFError):
        readable = False
    if readable:
        return TarReader(path)
    raise ArchiveError("%s is not a tar (gz, bz2, xz) or zip archive" % path)


def read_members(path):
    """The members of the archive at ``path`` by name; ArchiveError when it cannot be read."""
    reader = open_archive(path)
    try:
        return reader, dict((member.name, member) for member in reader.members())
    except (tarfile.TarError, zipfile.BadZipfile, EOFError, OSError) as exc:
        reader.close()
        raise ArchiveError("cannot read %s: %s" % (path, exc))
