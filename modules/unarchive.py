"""Unpack a tar (plain, gz, bz2, xz) or zip archive, copied from the controller or already on the host."""

import fnmatch
import hashlib
import os
import shutil
import stat
import tempfile

from modules._archives import ArchiveError, Member, open_archive
from modules._textfile import FILE_ATTRIBUTE_DOCS, FILE_ATTRIBUTE_SPEC
from modules._utils import error_text, lookup_gid, lookup_uid, path_info, remove_quietly

DOCUMENTATION = {
    "short_description": "Unpacks an archive after (optionally) copying it from the local machine",
    "description": [
        "Unpacks a tar (plain, gz, bz2, xz) or zip archive into an existing directory. By default the archive "
        "is copied from the controller (relative paths are looked up in the role's or playbook's files/); with "
        "remote_src it is already on the host, or a URL the host downloads.",
        "Idempotent by content: every entry is compared with what is in dest (kind, size and checksum of files, "
        "link targets, permissions, and as root the owner stored in a tar), and only entries that differ are "
        "written (atomically). Check mode says exactly which would be.",
        "Archives are read with Python's tarfile and zipfile, not the tar and unzip commands: of extra_opts only "
        "--strip-components is understood. Hard links in a tar are unpacked as separate files.",
    ],
    "options": dict({
        "src": {"description": "The archive: a path on the controller, or with remote_src a path or URL on the "
                               "host.", "type": "path", "required": True},
        "dest": {"description": "Existing directory to unpack into.", "type": "path", "required": True},
        "remote_src": {"description": "src is on the host (or a URL the host downloads).", "type": "bool",
                       "default": False},
        "copy": {"description": "Older spelling: copy: false is remote_src: true.", "type": "bool"},
        "creates": {"description": "Do nothing when this path exists.", "type": "path"},
        "list_files": {"description": "Return the archive's entries in files.", "type": "bool", "default": False},
        "include": {"description": "Only entries matching these globs.", "type": "list", "elements": "str",
                    "default": []},
        "exclude": {"description": "Leave out entries matching these globs.", "type": "list", "elements": "str",
                    "default": []},
        "keep_newer": {"description": "Leave files in dest that are newer than the archive's.", "type": "bool",
                       "default": False},
        "extra_opts": {"description": "Only --strip-components=N (or --strip-components N): drop N leading "
                                      "directories of every name.", "type": "list", "elements": "str",
                       "default": []},
        "validate_certs": {"description": "Check the server's certificate when src is an https URL.",
                           "type": "bool", "default": True},
        "io_buffer_size": {"description": "Size of the blocks read and written.", "type": "int",
                           "default": 65536},
        "decrypt": {"description": "Accepted for compatibility (archives are never vault-encrypted here).",
                    "type": "bool", "default": True},
    }, **FILE_ATTRIBUTE_DOCS),
}

EXAMPLES = """
- name: Unpack a release shipped with the role (files/app-1.2.tar.gz)
  unarchive:
    src: app-1.2.tar.gz
    dest: /opt/app
    owner: app
    group: app

- name: A binary from a release tarball, without its top directory
  unarchive:
    src: https://example.com/tool-1.0-linux-amd64.tar.gz
    remote_src: true
    dest: /usr/local/bin
    extra_opts: [--strip-components=1]
    include: ["*/tool"]
    creates: /usr/local/bin/tool
"""

RETURN = {
    "dest": "The directory unpacked into",
    "src": "The archive",
    "handler": "TgzArchive or ZipArchive",
    "files": "The archive's entries (with list_files)",
    "extract_results": "What was done: cmd (a description), rc, out, err",
    "uid": "Owner id of dest",
    "gid": "Group id of dest",
    "owner": "Owner name of dest",
    "group": "Group name of dest",
    "mode": "Permissions of dest",
    "state": "directory",
    "size": "Size of dest",
    "diff": "The entries that differ: what dest had and what the archive has (diff mode)",
}

ARGUMENT_SPEC = dict({
    "src": {"type": "path", "required": True},
    "dest": {"type": "path", "required": True},
    "remote_src": {"type": "bool", "default": False},
    "copy": {"type": "bool"},
    "creates": {"type": "path"},
    "list_files": {"type": "bool", "default": False},
    "include": {"type": "list", "elements": "str", "default": []},
    "exclude": {"type": "list", "elements": "str", "default": []},
    "keep_newer": {"type": "bool", "default": False},
    "extra_opts": {"type": "list", "elements": "str", "default": []},
    "validate_certs": {"type": "bool", "default": True},
    "io_buffer_size": {"type": "int", "default": 65536},
    "decrypt": {"type": "bool", "default": True},
}, **FILE_ATTRIBUTE_SPEC)
SPEC_RULES = {"mutually_exclusive": [["include", "exclude"], ["copy", "remote_src"]]}
SUPPORTS_CHECK_MODE = True
ACTION = "unarchive"

# The controller action: UPLOAD asks for a path to send the archive to; UPLOADED says src is that upload (removed
# when the module is done). UPLOAD_PATH carries the path back in the reply.
UPLOAD = "_provisioning_upload"
UPLOADED = "_provisioning_uploaded"
UPLOAD_PATH = "_provisioning_upload_path"


def strip_components(extra_opts):
    """N of --strip-components=N in extra_opts; ValueError naming anything else."""
    strip = 0
    options = list(extra_opts)
    while options:
        option = options.pop(0)
        name, _, value = option.partition("=")
        if name in ("--strip-components", "--strip"):
            if not value:
                value = options.pop(0) if options else ""
            try:
                strip = int(value)
            except ValueError:
                raise ValueError("--strip-components needs a number, got '%s'" % value)
        else:
            raise ValueError("extra_opts '%s' is not supported: archives are read with Python's tarfile and "
                             "zipfile, and only --strip-components is understood" % option)
    return strip


def selected(name, include, exclude):
    """Whether an entry passes include/exclude (globs matched against its name in the archive)."""
    if include and not any(fnmatch.fnmatch(name, pattern) for pattern in include):
        return False
    return not any(fnmatch.fnmatch(name, pattern) for pattern in exclude)


def _stripped(name, strip):
    parts = name.split("/")
    return "/".join(parts[strip:]) if len(parts) > strip else ""


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Entry(object):
    """One member of the archive and where it goes."""

    def __init__(self, member, path):
        self.member = member
        self.path = path


class Unpacker(object):
    def __init__(self, module, reader, dest):
        self.module = module
        params = module.params
        self.reader = reader
        self.dest = dest
        self.buffer = max(params["io_buffer_size"], 4096)
        # Permissions and owners come from the archive unless the task sets them; as tar does, an ordinary user
        # gets them through its umask and keeps its own ownership.
        self.as_root = os.getuid() == 0
        self.umask = 0 if self.as_root else _umask()
        self.keep_owner = self.as_root and params["owner"] is None and params["group"] is None
        try:
            strip = strip_components(params["extra_opts"])
        except ValueError as exc:
            module.fail(str(exc))
        self.entries = []
        self.names = []
        self._known = set()  # names of every entry so far, listed or implied
        for member in reader.members():
            if not selected(member.name, params["include"], params["exclude"]):
                continue
            member.name = _stripped(member.name, strip)
            if not member.name:
                continue
            self._add_parents(member.name)
            self._known.add(member.name)
            self.names.append(member.name)
            self.entries.append(Entry(member, os.path.join(dest, member.name)))

    def _add_parents(self, name):
        """Directories an archive implies without listing them (many zips): entries of their own, so they get
        the task's owner and mode like the rest."""
        parts = name.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            parent = "/".join(parts[:depth])
            if parent not in self._known:
                self._known.add(parent)
                self.entries.append(Entry(Member(parent, "directory", 0o755), os.path.join(self.dest, parent)))

    # -- comparing ----------------------------------------------------------------------------------------
    def archive_mode(self, member):
        """The permissions tar would give the entry (a task's mode is applied afterwards)."""
        return None if member.kind == "link" else member.mode & ~self.umask

    def wanted_ids(self, member):
        if not self.keep_owner or member.uid is None:
            return None
        uid = lookup_uid(member.owner) if member.owner else None
        gid = lookup_gid(member.group) if member.group else None
        return (member.uid if uid is None else uid, member.gid if gid is None else gid)

    def differs(self, entry):
        """Why the entry must be written ('absent', 'content', 'attributes'), or None when dest has it."""
        member, path = entry.member, entry.path
        predicted = self.module.predicted(path)
        if predicted is not None and not os.path.lexists(path):
            return None if predicted == member.kind else "absent"
        try:
            info = os.lstat(path)
        except OSError:
            return "absent"
        if member.kind == "directory":
            same = stat.S_ISDIR(info.st_mode)
        elif member.kind == "link":
            same = stat.S_ISLNK(info.st_mode) and os.readlink(path) == member.target
        elif not stat.S_ISREG(info.st_mode):
            same = False
        elif self.module.params["keep_newer"] and member.mtime is not None and info.st_mtime > member.mtime:
            return None
        else:
            same = info.st_size == member.size and _file_sha1(path, self.buffer) == member.checksum()
        if not same:
            return "content"
        mode = self.archive_mode(member) if self.module.params["mode"] is None else None
        ids = self.wanted_ids(member)
        if mode is not None and stat.S_IMODE(info.st_mode) != mode:
            return "attributes"
        if ids is not None and member.kind != "link" and (info.st_uid, info.st_gid) != ids:
            return "attributes"
        return None

    # -- writing ------------------------------------------------------------------------------------------
    def write(self, entry):
        member, path = entry.member, entry.path
        parent = os.path.dirname(path)
        if not os.path.isdir(parent):
            os.makedirs(parent)
        if member.kind == "directory":
            if os.path.lexists(path) and not os.path.isdir(path):
                os.unlink(path)
            if not os.path.isdir(path):
                os.mkdir(path, 0o700)
        elif member.kind == "link":
            self._replace_with_link(path, member.target)
        else:
            if os.path.isdir(path) and not os.path.islink(path):
                self.module.fail("cannot unpack %s: a directory is in the way" % path, dest=self.dest)
            if os.path.islink(path):
                os.unlink(path)  # replace the link itself, never write through it
            with member.open() as stream:
                self.module.atomic_write(path, stream)
        self._set_owner_and_mode(entry, final=member.kind != "directory")

    def _set_owner_and_mode(self, entry, final):
        member, path = entry.member, entry.path
        ids = self.wanted_ids(member)
        if ids is not None:
            os.lchown(path, ids[0], ids[1])
        mode = self.archive_mode(member)
        if mode is not None:
            # A directory stays writable until everything inside it is written.
            os.chmod(path, mode if final else mode | stat.S_IRWXU)

    @staticmethod
    def _replace_with_link(path, target):
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        temp = os.path.join(os.path.dirname(path), ".%s.%d.link" % (os.path.basename(path), os.getpid()))
        if os.path.lexists(temp):
            os.unlink(temp)
        os.symlink(target, temp)
        os.rename(temp, path)

    def unpack(self):
        """Write what differs; return (the entries written, a before/after text of them)."""
        module = self.module
        pending = [(entry, self.differs(entry)) for entry in self.entries]
        pending = [(entry, why) for entry, why in pending if why is not None]
        for entry, why in pending:
            if module.check_mode:
                if why == "absent":
                    module.predict(entry.path, entry.member.kind)
                continue
            self.write(entry)
        if not module.check_mode:
            for entry, _ in pending:
                if entry.member.kind == "directory":
                    self._set_owner_and_mode(entry, final=True)
        return pending

    def set_attributes(self):
        params = self.module.params
        if all(params.get(name) is None for name in ("mode", "owner", "group", "attributes")):
            return False
        changed = False
        for entry in self.entries:
            if entry.member.kind == "link":
                continue
            if self.module.set_file_attributes(entry.path, params["mode"], params["owner"], params["group"],
                                               attributes=params["attributes"]):
                changed = True
        return changed


def _file_sha1(path, buffer_size):
    digest = hashlib.sha1()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(buffer_size), b""):
            digest.update(block)
    return digest.hexdigest()


def _describe(pending, dest):
    before = "".join("%s: %s\n" % (entry.member.name, "absent" if why == "absent" else "differs")
                     for entry, why in pending)
    after = "".join("%s: %s\n" % (entry.member.name, entry.member.kind) for entry, _ in pending)
    return {"before": before, "after": after, "before_header": "%s (entries)" % dest,
            "after_header": "%s (entries)" % dest}


def download(module, url):
    """Fetch ``url`` into the agent's temp directory (removed when the agent ends); the local path."""
    import ssl
    try:
        from urllib.request import urlopen
    except ImportError:  # pragma: no cover - Python 2 is not a target
        module.fail("cannot download %s: no urllib" % url)
    context = None
    if url.startswith("https") and not module.params["validate_certs"]:
        context = ssl._create_unverified_context()
    handle, path = tempfile.mkstemp(dir=module.tmpdir, suffix=os.path.basename(url.split("?")[0]))
    try:
        with os.fdopen(handle, "wb") as out, urlopen(url, context=context, timeout=60) as response:
            shutil.copyfileobj(response, out, module.params["io_buffer_size"])
    except Exception as exc:  # any network failure, or a full disk, is the task's failure
        remove_quietly(path)
        module.fail("Failure downloading %s to %s, %s" % (url, path, error_text(exc)))
    return path


def _source(module):
    src = module.params["src"]
    if "://" in src:
        return download(module, src)
    if not os.path.exists(src):
        module.fail("Source '%s' does not exist" % src)
    if not os.access(src, os.R_OK):
        module.fail("Source '%s' not readable" % src)
    return src


def unarchive(module):
    params = module.params
    dest = params["dest"]
    if params["creates"] and module.lexists(params["creates"]):
        return {"changed": False, "skipped": True, "msg": "skipped, since %s exists" % params["creates"]}
    if not module.isdir(dest):
        module.fail("Destination '%s' is not a directory" % dest)
    src = _source(module)
    try:
        reader = open_archive(src)
    except ArchiveError:
        module.fail('Failed to find handler for "%s". Make sure the required command to extract the file is '
                    'installed.' % params["src"])
    try:
        unpacker = Unpacker(module, reader, dest)
        pending = unpacker.unpack()
        attributes_changed = unpacker.set_attributes()
    except ArchiveError as exc:
        module.fail(str(exc))
    finally:
        reader.close()
    result = {"changed": bool(pending) or attributes_changed, "dest": dest, "src": params["src"],
              "handler": reader.handler,
              "extract_results": {"cmd": ["unpack", params["src"], dest], "rc": 0, "out": "", "err": ""}}
    if params["list_files"]:
        result["files"] = unpacker.names
    if pending and module.diff_mode:
        result["diff"] = _describe(pending, dest)
    if os.path.isdir(dest):
        result.update(path_info(dest))
    return result


def run(module):
    params = module.params
    if params.get(UPLOAD):
        # The controller sends the archive here, in the agent's own temp directory.
        handle, path = tempfile.mkstemp(prefix="archive.", dir=module.tmpdir)
        os.close(handle)
        return {"changed": False, UPLOAD_PATH: path}
    remote = params["remote_src"] or params["copy"] is False
    if not remote and not params.get(UPLOADED):
        module.fail("src must be read on the controller: run unarchive as a task (its action sends the archive)")
    try:
        return unarchive(module)
    finally:
        if params.get(UPLOADED) and os.path.exists(params["src"]):
            os.unlink(params["src"])
