"""Create a tar or zip archive of files and directories, or compress a single file (gz, bz2, xz)."""

import bz2
import glob
import gzip
import hashlib
import lzma
import os
import shutil
import stat
import tarfile
import tempfile
import zipfile
from fnmatch import fnmatch

from modules._archives import BLOCK, ArchiveError, Member, read_members
from modules._textfile import FILE_ATTRIBUTE_DOCS, FILE_ATTRIBUTE_SPEC

DOCUMENTATION = {
    "short_description": "Creates a compressed archive of one or more files or trees",
    "description": [
        "Packs files and directories into a tar (plain, gz, bz2, xz) or zip archive. A single file (not a "
        "directory, no glob) is compressed on its own with gz, bz2 or xz unless force_archive is set.",
        "Idempotent by content: an existing archive holding the same entries (names, kinds, content, link "
        "targets, permissions) is left as it is, whatever its timestamps; check mode says exactly that too.",
        "Names in the archive are relative to the paths' common parent directory (arcroot); a directory given "
        "in path is stored with its contents.",
    ],
    "options": dict({
        "path": {"description": "Files, directories or globs to archive.", "type": "list", "elements": "path",
                 "required": True},
        "dest": {"description": "The archive to write; required when archiving several files, a directory or a "
                                "glob. A single compressed file defaults to path.<format>.", "type": "path"},
        "format": {"description": "Kind of archive (or compression of a single file).", "type": "str",
                   "default": "gz", "choices": ["bz2", "gz", "tar", "xz", "zip"]},
        "exclude_path": {"description": "Paths (or globs) left out of path.", "type": "list", "elements": "path",
                         "default": []},
        "exclusion_patterns": {"description": "Glob patterns of entries to leave out, matched against their full "
                                              "path and their name in the archive.", "type": "list",
                               "elements": "path"},
        "force_archive": {"description": "Make an archive even of a single file.", "type": "bool",
                          "default": False},
        "remove": {"description": "Remove the source files once archived.", "type": "bool", "default": False},
    }, **FILE_ATTRIBUTE_DOCS),
}

EXAMPLES = """
- name: Archive the application's data
  archive:
    path: /srv/app/data
    dest: /var/backups/app-data.tar.gz

- name: Zip the logs, leaving the current one out
  archive:
    path: /var/log/app/*.log
    dest: /var/backups/app-logs.zip
    format: zip
    exclude_path: /var/log/app/current.log

- name: Compress one dump and remove the original
  archive:
    path: /var/backups/db.sql
    format: xz
    remove: true
"""

RETURN = {
    "dest": "The archive",
    "dest_state": "archive, compress, incomplete (some paths were missing) or absent",
    "archived": "The paths put into the archive",
    "missing": "Paths that were not found",
    "arcroot": "The directory names in the archive are relative to",
    "expanded_paths": "path with its globs expanded",
    "expanded_exclude_paths": "exclude_path with its globs expanded",
    "diff": "Entries of the archive before and after (diff mode)",
}

ARGUMENT_SPEC = dict({
    "path": {"type": "list", "elements": "path", "required": True},
    "dest": {"type": "path"},
    "format": {"type": "str", "default": "gz", "choices": ["bz2", "gz", "tar", "xz", "zip"]},
    "exclude_path": {"type": "list", "elements": "path", "default": []},
    "exclusion_patterns": {"type": "list", "elements": "path"},
    "force_archive": {"type": "bool", "default": False},
    "remove": {"type": "bool", "default": False},
}, **FILE_ATTRIBUTE_SPEC)
SUPPORTS_CHECK_MODE = True

COMPRESSORS = {"gz": gzip.open, "bz2": bz2.open, "xz": lzma.open}
TAR_MODES = {"gz": "w:gz", "bz2": "w:bz2", "xz": "w:xz", "tar": "w"}
ARCHIVE_NAME = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz", ".zip")


def expand_paths(paths):
    """(expanded paths, whether any had a glob)."""
    expanded, globby = [], False
    for path in paths:
        if any(ch in path for ch in "*?["):
            globby = True
            expanded.extend(sorted(glob.glob(path)))
        else:
            expanded.append(path)
    return expanded, globby


def common_root(paths):
    """The deepest directory holding every path, with a trailing '/' (arcroot)."""
    parents = [os.path.dirname(os.path.abspath(path)) for path in paths]
    return os.path.join(os.path.commonpath(parents), "")


def _file_opener(path):
    return lambda: open(path, "rb")


def disk_member(path, name, follow):
    """What the writer stores for ``path``: tar keeps links as links, zip stores what they point to."""
    info = os.stat(path) if follow else os.lstat(path)
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISLNK(info.st_mode):
        return Member(name, "link", 0o777, target=os.readlink(path))
    if stat.S_ISDIR(info.st_mode):
        return Member(name, "directory", mode)
    return Member(name, "file", mode, info.st_size, opener=_file_opener(path))


class Plan(object):
    """What the archive should hold: (path on disk, Member) for every entry, in the order they are written."""

    def __init__(self, targets, root, fmt, exclusion_patterns):
        self.root = root
        self.follow = fmt == "zip"
        self.patterns = exclusion_patterns or []
        self.entries = []
        for target in targets:
            self._add(target)
            if os.path.isdir(target) and not os.path.islink(target):
                for directory, dirnames, filenames in os.walk(target):
                    dirnames.sort()
                    for name in dirnames + sorted(filenames):
                        self._add(os.path.join(directory, name))

    def _add(self, path):
        name = os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")
        if any(fnmatch(path, pattern) or fnmatch(name, pattern) for pattern in self.patterns):
            return
        self.entries.append((path, disk_member(path, name, self.follow)))

    def names(self):
        return [member.name for _, member in self.entries]

    def matches(self, existing):
        """True when ``existing`` (members by name) holds exactly these entries."""
        if sorted(existing) != sorted(self.names()):
            return False
        return all(existing[member.name].signature() == member.signature() for _, member in self.entries)


def existing_members(dest):
    """The members of the archive at ``dest`` by name; None when there is none (or it cannot be read)."""
    if not os.path.isfile(dest):
        return None
    try:
        reader, members = read_members(dest)
    except ArchiveError:
        return None
    try:
        # Checksums are read now, while the archive is open.
        return dict((name, _Snapshot(member)) for name, member in members.items())
    finally:
        reader.close()


class _Snapshot(object):
    def __init__(self, member):
        self._signature = member.signature()

    def signature(self):
        return self._signature


def write_archive(path, fmt, entries):
    if fmt == "zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for source, member in entries:
                archive.write(source, member.name)
        return
    with tarfile.open(path, TAR_MODES[fmt]) as archive:
        for source, member in entries:
            archive.add(source, member.name, recursive=False)


def _temp_beside(dest):
    handle, path = tempfile.mkstemp(prefix=".%s." % os.path.basename(dest), suffix=".tmp",
                                    dir=os.path.dirname(os.path.abspath(dest)))
    os.close(handle)
    return path


def _sha1_of(handle):
    digest = hashlib.sha1()
    for block in iter(lambda: handle.read(BLOCK), b""):
        digest.update(block)
    return digest.hexdigest()


def compressed_checksum(path, fmt):
    """SHA1 of what the compressed file at ``path`` holds; None when it is missing or not in ``fmt``."""
    if not os.path.isfile(path):
        return None
    try:
        with COMPRESSORS[fmt](path, "rb") as handle:
            return _sha1_of(handle)
    except (OSError, EOFError, lzma.LZMAError):
        return None


def _listing(names):
    return "".join("%s\n" % name for name in sorted(names))


class ArchiveTask(object):
    def __init__(self, module):
        self.module = module
        params = module.params
        self.format = params["format"]
        self.expanded, globby = expand_paths(params["path"])
        self.excluded = expand_paths(params["exclude_path"] or [])[0]
        self.paths = sorted(set(self.expanded) - set(self.excluded))
        if not self.paths:
            module.fail("Error, no source paths were found", path=", ".join(params["path"]),
                        expanded_paths=", ".join(self.expanded))
        self.root = common_root(self.paths)
        self.must_archive = params["force_archive"] or globby or len(self.paths) > 1 or os.path.isdir(self.paths[0])
        if not self.must_archive and self.format in ("tar", "zip"):
            self.must_archive = True  # a tar or zip of one file is still an archive
        self.dest = params["dest"]
        if not self.dest:
            if self.must_archive:
                module.fail('Error, must specify "dest" when archiving multiple files or trees',
                            path=", ".join(params["path"]))
            self.dest = "%s.%s" % (self.paths[0], self.format)
        self.targets = [path for path in self.paths if os.path.lexists(path)]
        self.missing = [path for path in self.paths if not os.path.lexists(path)]
        if params["remove"]:
            for path in self.targets:
                if os.path.isdir(path) and os.path.abspath(self.dest).startswith(os.path.join(path, "")):
                    module.fail("Error, created archive can not be contained in source paths when remove=true",
                                path=", ".join(self.paths))
        self.changed = False
        self.diff = None
        self.archived = []

    def _replace_dest(self, write):
        """Write the archive to a temp file beside dest, then rename it into place."""
        temp = _temp_beside(self.dest)
        try:
            try:
                write(temp)
            except (IOError, OSError) as exc:
                self.module.fail_writing(temp, self.dest, exc, dest=self.dest)
            self.module.atomic_move(temp, self.dest)
        finally:
            if os.path.exists(temp):
                os.unlink(temp)

    def archive(self):
        plan = Plan(self.targets, self.root, self.format, self.module.params["exclusion_patterns"])
        existing = existing_members(self.dest)
        self.archived = [path for path, _ in plan.entries]
        if existing is not None and plan.matches(existing):
            return
        self.changed = True
        if self.module.diff_mode:
            self.diff = {"before": _listing(existing or []), "after": _listing(plan.names()),
                         "before_header": "%s (entries)" % self.dest, "after_header": "%s (entries)" % self.dest}
        if not self.module.check_mode:
            self._replace_dest(lambda temp: write_archive(temp, self.format, plan.entries))

    def compress(self):
        source = self.targets[0]
        self.archived = [source]
        with open(source, "rb") as handle:
            wanted = _sha1_of(handle)
        if compressed_checksum(self.dest, self.format) == wanted:
            return
        self.changed = True
        if self.module.diff_mode:
            self.diff = {"before": "", "after": "%s (%s of %s)\n" % (self.dest, self.format, source)}
        if not self.module.check_mode:
            self._replace_dest(lambda temp: self._compress_to(source, temp))

    def _compress_to(self, source, temp):
        with open(source, "rb") as reader, COMPRESSORS[self.format](temp, "wb") as writer:
            shutil.copyfileobj(reader, writer, BLOCK)

    def remove_sources(self):
        module = self.module
        for path in self.targets:
            self.changed = True
            if module.check_mode:
                module.predict(path, "absent")
            elif os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)

    def destination_state(self):
        if not self.targets:
            if not self.module.lexists(self.dest):
                return "absent"
            return "archive" if self.dest.endswith(ARCHIVE_NAME) else "compress"
        if not self.must_archive:
            return "compress"
        return "incomplete" if self.missing else "archive"

    def run(self):
        module = self.module
        if self.targets:
            if not module.isdir(os.path.dirname(os.path.abspath(self.dest))):
                module.fail("Destination directory %s does not exist" % os.path.dirname(self.dest),
                            dest=self.dest)
            if self.must_archive:
                self.archive()
            else:
                self.compress()
            if self.changed:
                module.predict(self.dest, "file")
            if module.params["remove"]:
                self.remove_sources()
        params = module.params
        if module.lexists(self.dest) and module.set_file_attributes(self.dest, params["mode"], params["owner"],
                                                                    params["group"],
                                                                    attributes=params["attributes"]):
            self.changed = True
        result = {"changed": self.changed, "dest": self.dest, "dest_state": self.destination_state(),
                  "archived": self.archived, "missing": self.missing, "arcroot": self.root,
                  "expanded_paths": self.expanded, "expanded_exclude_paths": self.excluded}
        if self.diff:
            result["diff"] = self.diff
        return result


def run(module):
    return ArchiveTask(module).run()
