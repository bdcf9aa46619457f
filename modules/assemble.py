"""Assemble a configuration file from a directory of fragments, in the order of their names."""

import base64
import codecs
import hashlib
import os
import re

from modules._textfile import (
    BACKUP_DOC,
    FILE_ATTRIBUTE_DOCS,
    FILE_ATTRIBUTE_SPEC,
    VALIDATE_DOC,
    fail_if_directory,
    finish,
    read_content,
)
from modules._utils import path_info

DOCUMENTATION = {
    "short_description": "Assemble configuration files from fragments",
    "description": [
        "Concatenates the files of a directory, sorted by name, into one file. A fragment that does not end with "
        "a newline gets one before the next fragment; delimiter goes between fragments.",
        "With remote_src (the default) the fragments are on the host; with remote_src: false they are read on "
        "the controller (relative paths in the role's or playbook's files/) and only the result is sent.",
    ],
    "options": dict({
        "src": {"description": "Directory of fragments.", "type": "path", "required": True},
        "dest": {"description": "The file to write.", "type": "path", "required": True},
        "remote_src": {"description": "src is on the host; false reads it on the controller.", "type": "bool",
                       "default": True},
        "regexp": {"description": "Only fragments whose names match this regular expression (searched "
                                  "anywhere in the name).", "type": "str"},
        "delimiter": {"description": "Text put between fragments (escapes like \\n are read); a newline follows "
                                     "it when it has none.", "type": "str"},
        "ignore_hidden": {"description": "Leave out fragments whose names start with '.'.", "type": "bool",
                          "default": False},
        "follow": {"description": "Accepted for compatibility: dest is always written as a file.", "type": "bool",
                   "default": False},
        "decrypt": {"description": "Accepted for compatibility (fragments are never vault-encrypted here).",
                    "type": "bool", "default": True},
        "backup": BACKUP_DOC,
        "validate": VALIDATE_DOC,
    }, **FILE_ATTRIBUTE_DOCS),
}

EXAMPLES = """
- name: sshd_config from the fragments in /etc/ssh/conf.d
  assemble:
    src: /etc/ssh/conf.d
    dest: /etc/ssh/sshd_config
    validate: /usr/sbin/sshd -t -f %s

- name: authorized_keys from the keys in the role's files/keys/
  assemble:
    src: keys
    dest: /root/.ssh/authorized_keys
    remote_src: false
    mode: "0600"
"""

RETURN = {
    "src": "The fragments' directory",
    "dest": "The file written",
    "checksum": "SHA1 of the assembled file",
    "backup_file": "The backup made, when backup was asked and the file changed",
    "msg": "OK (and a note when attributes changed)",
    "diff": "Content before and after (diff mode)",
}

ARGUMENT_SPEC = dict({
    "src": {"type": "path", "required": True},
    "dest": {"type": "path", "required": True},
    "remote_src": {"type": "bool", "default": True},
    "regexp": {"type": "str"},
    "delimiter": {"type": "str"},
    "ignore_hidden": {"type": "bool", "default": False},
    "follow": {"type": "bool", "default": False},
    "decrypt": {"type": "bool", "default": True},
    "backup": {"type": "bool", "default": False},
    "validate": {"type": "str"},
}, **FILE_ATTRIBUTE_SPEC)
SUPPORTS_CHECK_MODE = True
ACTION = "assemble"

# The controller action sends the fragments it assembled (base64) when remote_src is false.
ASSEMBLED = "_provisioning_assembled"


def _delimiter_bytes(delimiter):
    data = codecs.escape_decode(delimiter.encode("utf-8"))[0]
    return data if data.endswith(b"\n") else data + b"\n"


def assemble_fragments(directory, delimiter=None, regexp=None, ignore_hidden=False):
    """The fragments of ``directory`` joined (bytes). Used on the host and by the controller action.

    Raises ``re.error`` for a bad regexp and ``OSError`` when the directory cannot be read.
    """
    pattern = re.compile(regexp) if regexp else None
    separator = _delimiter_bytes(delimiter) if delimiter else b""
    parts = []  # type: list[bytes]
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if pattern is not None and not pattern.search(name):
            continue
        if not os.path.isfile(path) or (ignore_hidden and name.startswith(".")):
            continue
        with open(path, "rb") as handle:
            content = handle.read()
        if parts:
            if not parts[-1].endswith(b"\n"):
                parts.append(b"\n")
            parts.append(separator)
        parts.append(content)
    return b"".join(parts)


def run(module):
    params = module.params
    src, dest = params["src"], params["dest"]
    if params.get(ASSEMBLED) is not None:
        new = base64.b64decode(params[ASSEMBLED])
    elif not params["remote_src"]:
        module.fail("src must be read on the controller: run assemble as a task (its action sends the fragments)")
    elif not os.path.isdir(src):
        module.fail("Source (%s) is not a directory" % src if os.path.exists(src) else "Source (%s) does not exist"
                    % src)
    else:
        try:
            new = assemble_fragments(src, params["delimiter"], params["regexp"], params["ignore_hidden"])
        except re.error as exc:
            module.fail("Invalid Regexp (%s) in \"%s\"" % (exc, params["regexp"]))
        except (IOError, OSError) as exc:
            module.fail("Unable to read the fragments in %s: %s" % (src, exc.strerror or exc))
    fail_if_directory(module, dest)
    original = read_content(module, dest)
    result = finish(module, dest, original, new, "OK")
    result.update(src=src, dest=dest, checksum=hashlib.sha1(new).hexdigest())
    # As Ansible adds to every result naming a dest: state, mode, owner, group, uid, gid and size.
    result.update(path_info(dest))
    return result
