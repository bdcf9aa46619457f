"""Copy a file or a directory tree to the host, or write given content to a file there.

The controller action (``runner/actions/copy.py``) reads ``src`` on the controller and hands this module the
files it found: small ones inline, large ones by checksum alone (this module then names a temp path for each one
that differs, the controller streams it there, and a second call moves it into place). With ``remote_src`` the
source is already on the host and this module does everything.
"""

import base64
import hashlib
import os
import shutil
import tempfile

from modules._fsattrs import FILESYSTEM_ATTRIBUTE_DOCS, FILESYSTEM_ATTRIBUTE_SPEC
from modules._utils import diff_text, file_checksum, make_directories, path_info, read_text, text_diff

DOCUMENTATION = {
    "short_description": "Copy files to remote locations",
    "description": [
        "Copies a file or a directory from the controller (or, with remote_src, from the host itself) to a "
        "location on the host, or writes content to a file there. Writes are atomic: a temp file beside the "
        "destination, renamed into place.",
        "A directory src is copied recursively: with a trailing slash its contents go into dest, without one "
        "the directory itself is created inside dest.",
        "A file whose checksum already matches is not sent again; its mode, owner and group are still fixed.",
    ],
    "options": dict({
        "src": {"description": "Path of the file or directory to copy: on the controller (relative paths are "
                               "looked up in the role's or playbook's files/), or on the host with remote_src.",
                "type": "path"},
        "content": {"description": "Write this text to dest instead of copying src. A dict or list is written "
                                   "as JSON.", "type": "raw"},
        "dest": {"description": "Where to copy to on the host. A directory (or a path ending in '/') receives "
                                "the file under its own name.", "type": "path", "required": True},
        "backup": {"description": "Keep the previous file as a timestamped copy beside it when it changes.",
                   "type": "bool", "default": False},
        "force": {"description": "Replace dest when its content differs; with false, only a missing dest is "
                                 "written.", "type": "bool", "default": True, "aliases": ["thirsty"]},
        "mode": {"description": "Permissions of the copied files: octal (0644 or '0644'), symbolic "
                                "('u=rw,g=r,o=r') or 'preserve' (those of the source).", "type": "raw"},
        "owner": {"description": "User that should own the copied files and the directories created.",
                  "type": "str"},
        "group": {"description": "Group that should own the copied files and the directories created.",
                  "type": "str"},
        "directory_mode": {"description": "Mode of the directories a recursive copy creates (existing ones keep "
                                          "theirs).", "type": "raw"},
        "remote_src": {"description": "src is a path on the host, not on the controller.", "type": "bool",
                       "default": False},
        "validate": {"description": "Command that checks the new file before it replaces dest; '%s' is its "
                                    "path. A non-zero exit leaves dest untouched.", "type": "str"},
        "follow": {"description": "When dest is a symlink, write through it to its target.", "type": "bool",
                   "default": False},
        "local_follow": {"description": "Follow symlinks in the source tree (false: recreate them as links).",
                         "type": "bool", "default": True},
        "checksum": {"description": "Expected SHA1 of the source; the copy fails when it differs.",
                     "type": "str"},
        "decrypt": {"description": "Decrypt a vault- or age-encrypted src on the controller (false: copy it as "
                               "it is, encrypted).",
                    "type": "bool", "default": True},
        "_original_basename": {"description": "Internal to Ansible's action plugins; accepted and ignored.",
                               "type": "str"},
    }, **FILESYSTEM_ATTRIBUTE_DOCS),
}

EXAMPLES = """
- name: Install the motd
  copy:
    src: motd            # files/motd of the role or playbook
    dest: /etc/motd
    owner: root
    group: root
    mode: "0644"
    backup: true

- name: Write a small config
  copy:
    content: |
      listen 127.0.0.1
    dest: /etc/app/listen.conf
    validate: /usr/sbin/app --check-config %s

- name: Copy the contents of a directory, not the directory itself
  copy:
    src: site/
    dest: /var/www/html
    directory_mode: "0755"
"""

RETURN = {
    "dest": "Destination path (for a directory copy, the directory)",
    "src": "Source the copy came from, when there is one",
    "checksum": "SHA1 of the copied file",
    "md5sum": "MD5 of the copied file, when it was written",
    "backup_file": "The backup made, when backup was asked and the file changed",
    "size": "Size of the destination in bytes",
    "mode": "Permissions of the destination ('0644')",
    "owner": "Owner name",
    "group": "Group name",
    "uid": "Owner id",
    "gid": "Group id",
    "state": "file, directory, link, hard or absent",
    "diff": "Content before and after (diff mode, text files only)",
}

ARGUMENT_SPEC = {
    "src": {"type": "path"},
    "content": {"type": "raw"},
    "dest": {"type": "path", "required": True},
    "backup": {"type": "bool", "default": False},
    "force": {"type": "bool", "default": True, "aliases": ["thirsty"]},
    "mode": {"type": "raw"},
    "owner": {"type": "str"},
    "group": {"type": "str"},
    "directory_mode": {"type": "raw"},
    "remote_src": {"type": "bool", "default": False},
    "validate": {"type": "str"},
    "follow": {"type": "bool", "default": False},
    "local_follow": {"type": "bool", "default": True},
    "checksum": {"type": "str"},
    "decrypt": {"type": "bool", "default": True},
    "_original_basename": {"type": "str"},
}
ARGUMENT_SPEC.update(FILESYSTEM_ATTRIBUTE_SPEC)
SPEC_RULES = {"mutually_exclusive": [["src", "content"]], "required_one_of": [["src", "content"]]}
SUPPORTS_CHECK_MODE = True
ACTION = "copy"

# What the controller action passes besides the user's arguments (see runner/actions/copy.py).
FILES = "_provisioning_files"  # [{path, checksum, size, mode, content | content_b64 | upload}]
DIRECTORIES = "_provisioning_directories"  # directories of a tree, relative to dest
LINKS = "_provisioning_links"  # [{path, target}] symlinks of a tree copied as links (local_follow: false)
TREE = "_provisioning_tree"  # dest is the root of a directory copy
NEEDS = "_provisioning_needs"  # in the reply: [{path, upload}] files to stream to ``upload`` before a second call


class Source(object):
    """One file's new content: inline bytes, a file on this host, or (not sent yet) only its checksum."""

    def __init__(self, name, checksum=None, mode=None, data=None, path=None, temporary=False):
        self.name = name
        self.data = data
        self.path = path
        self.temporary = temporary  # an upload: moved into place rather than copied
        self.mode = mode
        self._checksum = checksum

    @property
    def available(self):
        return self.data is not None or self.path is not None

    @property
    def checksum(self):
        if self._checksum is None:
            self._checksum = hashlib.sha1(self.data).hexdigest() if self.data is not None else file_checksum(
                self.path)
        return self._checksum

    def md5(self):
        if self.data is not None:
            return hashlib.md5(self.data).hexdigest()
        try:
            return file_checksum(self.path, "md5")
        except ValueError:  # a FIPS host has no md5
            return None

    def diff_text(self):
        if self.data is not None:
            return diff_text(self.data)
        if self.path is not None:
            return read_text(self.path)
        return "[content not sent yet: it differs by checksum]\n"

    @classmethod
    def from_entry(cls, entry):
        """A file entry the controller sent."""
        data = None
        if entry.get("content_b64") is not None:
            data = base64.b64decode(entry["content_b64"])
        elif entry.get("content") is not None:
            data = entry["content"].encode("utf-8")
        upload = entry.get("upload")
        return cls(entry.get("path") or "", entry.get("checksum"), entry.get("mode"), data, upload,
                   temporary=upload is not None)


class Copier(object):
    """Writes sources to destinations with the task's options, collecting what a result reports."""

    def __init__(self, module):
        self.module = module
        params = module.params
        self.force = params["force"]
        self.backup = params["backup"]
        self.mode = params["mode"]
        self.owner = params["owner"]
        self.group = params["group"]
        self.directory_mode = params["directory_mode"]
        self.validate = params["validate"]
        self.changed = False
        self.diffs = []
        self.needs = []
        if self.validate is not None and "%s" not in self.validate:
            module.fail("validate must contain %%s: %s" % self.validate)

    def ensure_directory(self, path):
        """Create ``path`` (and parents) with directory_mode; owner/group go on what is created."""
        if make_directories(self.module, path, self.directory_mode, self.owner, self.group):
            self.changed = True

    def copy_file(self, source, dest):
        """Bring ``dest`` to ``source``'s content and the asked attributes; return that file's result."""
        module = self.module
        if module.isdir(dest) and not os.path.islink(dest):
            module.fail("cannot copy %s to %s: it is a directory" % (source.name or "content", dest), dest=dest)
        exists = module.lexists(dest)
        result = {"dest": dest, "checksum": source.checksum}
        if exists and not self.force:
            return result  # force: false keeps an existing file whatever it holds
        content_changed = file_checksum(dest) != source.checksum
        if content_changed and not source.available and not module.check_mode:
            self.needs.append({"path": source.name, "upload": module.reserve_upload(dest)})
            return result
        if content_changed:
            self._write(source, dest, exists, result)
        mode = source.mode if self.mode == "preserve" else self.mode
        if module.set_file_attributes(dest, mode, self.owner, self.group,
                                      attributes=module.params.get("attributes")):
            self.changed = True
        return result

    def _write(self, source, dest, exists, result):
        module = self.module
        self.changed = True
        if module.diff_mode:
            # As Ansible: the after header names the source file, or the destination when copying content.
            self.diffs.append(text_diff(read_text(dest) if exists else "", source.diff_text(), dest,
                                        source.name or dest))
        if module.check_mode:
            module.predict(dest, "file")
            return
        md5 = source.md5()
        if md5:
            result["md5sum"] = md5
        backup = self.backup and exists
        if source.data is not None and not source.name:
            # given content: staged on the host as the file it is copied from, named as Ansible names its upload
            # (.source and dest's suffix, which validate may need), and reported as the result's src
            staged = os.path.join(tempfile.mkdtemp(dir=module.tmpdir), ".source" + os.path.splitext(dest)[1])
            try:
                with open(staged, "wb") as handle:
                    handle.write(source.data)
                result["src"] = staged
                backup_file = module.replace_file(dest, source=staged, validate=self._validator(), backup=backup)
            finally:
                shutil.rmtree(os.path.dirname(staged), ignore_errors=True)
        elif source.data is not None:
            backup_file = module.replace_file(dest, source.data, validate=self._validator(), backup=backup)
        elif source.temporary:
            backup_file = module.replace_file(dest, source=source.path, validate=self._validator(), backup=backup)
        else:
            with open(source.path, "rb") as handle:
                backup_file = module.replace_file(dest, handle, validate=self._validator(), backup=backup)
        if backup_file:
            result["backup_file"] = backup_file

    def _validator(self):
        if self.validate is None:
            return None

        def validate(path):
            rc, out, err = self.module.run_command(self.validate % path)
            if rc != 0:
                self.module.fail("failed to validate", exit_status=rc, stdout=out, stderr=err)
        return validate

    def ensure_link(self, target, dest):
        if os.path.islink(dest) and os.readlink(dest) == target:
            return
        if os.path.isdir(dest) and not os.path.islink(dest):
            self.module.fail("cannot replace directory %s with a symlink" % dest, dest=dest)
        self.changed = True
        if self.module.check_mode:
            return
        tmp = os.path.join(os.path.dirname(dest), ".provisioning-link.%d" % os.getpid())
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(target, tmp)
        os.rename(tmp, dest)


def _single_file_dest(module, source):
    """Where a single file goes: dest itself, or ``dest/<name>`` when dest is (or ends like) a directory."""
    dest = module.params["dest"]
    into_directory = dest.endswith("/") or module.isdir(dest)
    if into_directory:
        if not source.name:
            module.fail("can not use content with a dir as dest", dest=dest)
        return os.path.join(dest, os.path.basename(source.name.rstrip("/"))), dest
    parent = os.path.dirname(os.path.abspath(dest))
    if not module.isdir(parent):
        module.fail("Destination directory %s does not exist" % parent, dest=dest)
    if module.params["follow"] and os.path.islink(dest):
        dest = os.path.realpath(dest)
    return dest, None


def copy_single(module, copier, source, src_name):
    expected = module.params["checksum"]
    if expected and source.checksum and expected != source.checksum:
        module.fail("Copied file does not match the expected checksum. Transfer failed.",
                    checksum=source.checksum, expected_checksum=expected)
    dest, directory = _single_file_dest(module, source)
    if directory is not None:
        copier.ensure_directory(directory)
    result = copier.copy_file(source, dest)
    if src_name:
        result["src"] = src_name
    if not module.check_mode or os.path.lexists(dest):
        result.update(path_info(dest))
    return result


def copy_tree(module, copier, files, directories, links, src_name):
    root = module.params["dest"].rstrip("/") or "/"
    copier.ensure_directory(root)
    for relative in directories:
        path = os.path.join(root, relative)
        copier.ensure_directory(path)
        if os.path.isdir(path) and module.set_file_attributes(path, None, copier.owner, copier.group):
            copier.changed = True
    for link in links:
        copier.ensure_link(link["target"], os.path.join(root, link["path"]))
    for source in files:
        copier.copy_file(source, os.path.join(root, source.name))
    result = {"dest": root, "tree": True}
    if src_name:
        result["src"] = src_name
    return result


def walk_source_tree(src, follow_links):
    """A directory to copy as {files: [(relative, path)], directories: [relative], links: [{path, target}]}.

    Names are relative to the copy's root: with a trailing slash on ``src`` its contents, without one the
    directory itself (as rsync and Ansible read it). Used on the host (remote_src) and by the controller action.
    """
    base = src.rstrip("/") or "/"
    prefix = "" if src.endswith("/") else os.path.basename(base)
    tree = {"files": [], "directories": [prefix] if prefix else [], "links": []}  # type: dict[str, list]
    for walk_root, dirnames, filenames in os.walk(base, followlinks=follow_links):
        relative_root = prefix if walk_root == base else os.path.join(prefix, os.path.relpath(walk_root, base))
        dirnames.sort()
        for name in dirnames + sorted(filenames):
            path = os.path.join(walk_root, name)
            relative = os.path.join(relative_root, name)
            if os.path.islink(path) and not follow_links:
                tree["links"].append({"path": relative, "target": os.readlink(path)})
            elif name in dirnames:
                tree["directories"].append(relative)
            else:
                tree["files"].append((relative, path))
    return tree


def _source_mode(path):
    return os.stat(path).st_mode & 0o7777


def _remote_source(module):
    src = module.params["src"]
    if src is None:
        module.fail("src is required with remote_src")
    if not os.path.exists(src):
        module.fail("Source %s not found" % src)
    if not os.access(src, os.R_OK):
        module.fail("Source %s not readable" % src)
    return src


def _content_bytes(content):
    if isinstance(content, (dict, list)):
        import json
        return json.dumps(content).encode("utf-8")
    if isinstance(content, bytes):
        return content
    # a byte that is not UTF-8 travels as a lone surrogate (b64decode of latin-1 text, as Ansible's) and is
    # written back as that byte
    return str(content).encode("utf-8", "surrogateescape")


def copy_from_controller(module, copier):
    """The files the controller action sent; uploads that were not moved into place are removed, whatever
    happens, so a failed copy leaves no temp file beside its destination."""
    params = module.params
    files = [Source.from_entry(entry) for entry in params[FILES]]
    try:
        if params.get(TREE):
            return copy_tree(module, copier, files, params.get(DIRECTORIES) or [], params.get(LINKS) or [],
                             params["src"])
        return copy_single(module, copier, files[0], params["src"])
    except BaseException:
        # Upload paths named for the controller in this call will never be used.
        _remove([need["upload"] for need in copier.needs])
        raise
    finally:
        _remove([source.path for source in files if source.temporary])


def _remove(paths):
    for path in paths:
        if os.path.lexists(path):
            os.unlink(path)


def copy_on_host(module, copier):
    params = module.params
    src = _remote_source(module)
    if os.path.isdir(src):
        tree = walk_source_tree(src, params["local_follow"])
        files = [Source(relative, mode=_source_mode(path), path=path) for relative, path in tree["files"]]
        return copy_tree(module, copier, files, tree["directories"], tree["links"], src)
    return copy_single(module, copier, Source(src, mode=_source_mode(src), path=src), src)


def run(module):
    params = module.params
    copier = Copier(module)
    if params.get(FILES) is not None:
        result = copy_from_controller(module, copier)
    elif params["remote_src"]:
        result = copy_on_host(module, copier)
    elif params["content"] is not None:
        if params["mode"] == "preserve":
            module.fail("mode: preserve is not allowed with content (there is no source file)")
        result = copy_single(module, copier, Source("", data=_content_bytes(params["content"])), None)
    else:
        module.fail("src must be read on the controller: run copy as a task (its action sends the file)")
    result["changed"] = copier.changed
    if copier.diffs:
        # A directory copy reports one diff per file, as Ansible's does.
        result["diff"] = copier.diffs if result.get("tree") else copier.diffs[0]
    result.pop("tree", None)
    if copier.needs:
        result[NEEDS] = copier.needs
    return result
