"""Editing one file's content in place, as lineinfile, blockinfile, replace, ini_file and assemble do.

A module reads the file (``read_content``), computes the new content, and hands both to ``finish``: it writes the
new content atomically (temp file beside it, fsync, rename) after ``validate`` passed, keeps a backup when asked,
brings mode/owner/group to what was asked, and reports msg, diff and backup. In check mode it touches nothing and
records what it would create, so later tasks of the same check run see the file.
"""

import os

from modules._fsattrs import FILESYSTEM_ATTRIBUTE_DOCS
from modules._spec import argument_spec
from modules._utils import diff_text, make_directories

# The file attribute options every content-editing module takes (as Ansible's "files" options).
FILE_ATTRIBUTE_DOCS = dict({
    "mode": {"description": "Permissions of the file: octal (0644 or '0644') or symbolic ('u=rw,g=r,o=r').",
             "type": "raw"},
    "owner": {"description": "User that should own the file (name or uid).", "type": "str"},
    "group": {"description": "Group that should own the file (name or gid).", "type": "str"},
}, **FILESYSTEM_ATTRIBUTE_DOCS)
FILE_ATTRIBUTE_SPEC = argument_spec(FILE_ATTRIBUTE_DOCS)
VALIDATE_DOC = {"description": "Command that checks the new content before it replaces the file; '%s' is the "
                               "temp file's path. A non-zero exit fails the task and leaves the file as it was.",
                "type": "str"}
BACKUP_DOC = {"description": "Keep the previous file as a timestamped copy beside it when it changes.",
              "type": "bool", "default": False}
ATTRIBUTES_CHANGED = "ownership, perms or SE linux context changed"


ENCODING_DOC = {"description": "The file's character encoding (a Python codec name), for reading and writing it.",
                "type": "str", "default": "utf-8"}


def as_utf8(module, content, encoding, path):
    """The file's bytes in UTF-8, what the line and block editors match against, when the file is in another
    ``encoding``; UTF-8 content is left as it is, undecodable bytes and all."""
    if content is None or _is_utf8(encoding):
        return content
    try:
        return content.decode(encoding).encode("utf-8", "surrogateescape")
    except (LookupError, UnicodeDecodeError) as exc:
        module.fail("Unable to read the contents of %s as %s: %s" % (path, encoding, exc), path=path)


def from_utf8(module, content, encoding, path):
    """Edited UTF-8 bytes back in the file's ``encoding``."""
    if _is_utf8(encoding):
        return content
    try:
        return content.decode("utf-8", "surrogateescape").encode(encoding)
    except (LookupError, UnicodeError) as exc:
        module.fail("Unable to write the contents of %s as %s: %s" % (path, encoding, exc), path=path)


def _is_utf8(encoding):
    return encoding.lower().replace("_", "-") in ("utf-8", "utf8")


def split_lines(data):
    """``data`` as lines that keep their ``\\n`` (only ``\\n`` ends a line, as ``readlines`` reads a file)."""
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def fail_if_directory(module, path):
    if module.isdir(path):
        module.fail("Path %s is a directory !" % path, rc=256)


def read_content(module, path):
    """The file's bytes; None when it does not exist (or an earlier task of this check run removes it).

    A file that an earlier check-mode task would create reads as empty.
    """
    if not module.lexists(path):
        return None
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except (IOError, OSError) as exc:
        if not os.path.lexists(path):
            return b""  # predicted by an earlier task of this check run, not on disk yet
        module.fail("Unable to read the contents of %s: %s" % (path, exc.strerror or exc), path=path)


def validator(module, command):
    """``validate(path)`` running ``command`` on the temp file; the module fails when it exits non-zero."""
    if command is None:
        return None
    if "%s" not in command:
        module.fail("validate must contain %%s: %s" % command)

    def validate(temp_path):
        rc, out, err = module.run_command(command % temp_path)
        if rc != 0:
            module.fail("failed to validate: rc:%s error:%s" % (rc, err), exit_status=rc, stdout=out, stderr=err)
    return validate


def content_diff(path, before, after, header="%s (content)"):
    """The content entry of a ``diff``, headed like Ansible's (``<path> (content)``, or ``header`` with the path:
    ``replace`` heads its with the path alone)."""
    return {"before": diff_text(before or b""), "after": diff_text(after),
            "before_header": header % path, "after_header": header % path}


class ContentChange(object):
    """Bringing one file from ``original`` (bytes, or None when missing) to ``new`` and to the asked attributes."""

    def __init__(self, module, path, original, new, header="%s (content)"):
        self.module = module
        self.path = path
        self.header = header
        self.original = original
        self.new = new
        self.backup_file = None

    @property
    def content_changed(self):
        return self.new != self.original

    def write(self, backup=False, validate=None, create_parents=False):
        """Write the new content when it differs; return True when it did (or, in check mode, would)."""
        module = self.module
        check = validator(module, validate)  # a malformed command fails even when nothing is written
        if not self.content_changed:
            return False
        if self.original is None and create_parents:
            make_directories(module, os.path.dirname(os.path.abspath(self.path)))
        if module.check_mode:
            module.predict(self.path, "file")
            return True
        self.backup_file = module.replace_file(self.path, self.new, validate=check,
                                               backup=backup and self.original is not None) or None
        return True

    def set_attributes(self, attribute_diff):
        if self.new is None:
            return False  # no file, and none to be made
        params = self.module.params
        return self.module.set_file_attributes(self.path, params.get("mode"), params.get("owner"),
                                               params.get("group"), attribute_diff,
                                               attributes=params.get("attributes"))

    def result(self, msg, changed_content, attributes_changed, attribute_diff):
        """changed, msg (with Ansible's note on attributes) and, in diff mode, the content and attribute diffs."""
        if attributes_changed:
            msg = (msg + " and " if changed_content and msg else "") + ATTRIBUTES_CHANGED
        result = {"changed": bool(changed_content or attributes_changed), "msg": msg}
        if self.module.diff_mode:
            diffs = [content_diff(self.path, self.original, self.new, self.header)]
            if attribute_diff:
                attribute_diff["before_header"] = attribute_diff["after_header"] = "%s (file attributes)" % self.path
                diffs.append(attribute_diff)
            result["diff"] = diffs if len(diffs) > 1 else diffs[0]
        return result


def finish(module, path, original, new, msg, create_parents=False, header="%s (content)"):
    """Apply the change with the module's ``backup``/``validate``/mode/owner/group; the module's result.

    ``backup_file`` is in the result when a backup was made.
    """
    params = module.params
    change = ContentChange(module, path, original, new, header)
    written = change.write(params.get("backup", False), params.get("validate"), create_parents)
    attribute_diff = {}  # type: dict
    attributes_changed = change.set_attributes(attribute_diff)
    result = change.result(msg, written, attributes_changed, attribute_diff)
    if change.backup_file:
        result["backup_file"] = change.backup_file
    return result
