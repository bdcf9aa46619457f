"""Insert, update or remove a block of lines in a file, between marker lines."""

import os
import re

from modules._textfile import (
    BACKUP_DOC,
    ENCODING_DOC,
    FILE_ATTRIBUTE_DOCS,
    FILE_ATTRIBUTE_SPEC,
    VALIDATE_DOC,
    as_utf8,
    fail_if_directory,
    finish,
    from_utf8,
    read_content,
    split_lines,
)

DOCUMENTATION = {
    "short_description": "Insert/update/remove a text block surrounded by marker lines",
    "description": [
        "Inserts, updates or removes a block of lines in a file. The block sits between two marker lines, so a "
        "later run finds and replaces it (or removes it with state=absent).",
        "A new block goes after the last line matching insertafter, before the last line matching insertbefore, "
        "or at the end of the file. A regular expression with the (?m) flag is searched across lines.",
    ],
    "options": dict({
        "path": {"description": "The file to modify.", "type": "path", "required": True,
                 "aliases": ["dest", "destfile", "name"]},
        "state": {"description": "Whether the block should be there or not.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "marker": {"description": "The marker line template; {mark} becomes marker_begin or marker_end. Use a "
                                  "different marker for each block in one file.", "type": "str",
                   "default": "# {mark} ANSIBLE MANAGED BLOCK"},
        "block": {"description": "The text between the markers. An empty block removes the block and its "
                                 "markers.", "type": "str", "default": "", "aliases": ["content"]},
        "insertafter": {"description": "Where a new block goes: after the last line matching this regular "
                                       "expression, or EOF (the default).", "type": "str"},
        "insertbefore": {"description": "Where a new block goes: before the last line matching this regular "
                                        "expression, or BOF.", "type": "str"},
        "create": {"description": "Create the file (and its directories) when it is missing.", "type": "bool",
                   "default": False},
        "backup": BACKUP_DOC,
        "validate": VALIDATE_DOC,
        "encoding": ENCODING_DOC,
        "marker_begin": {"description": "What {mark} becomes in the opening marker.", "type": "str",
                         "default": "BEGIN"},
        "marker_end": {"description": "What {mark} becomes in the closing marker.", "type": "str",
                       "default": "END"},
        "append_newline": {"description": "Keep a blank line after the block (unless it ends the file).",
                           "type": "bool", "default": False},
        "prepend_newline": {"description": "Keep a blank line before the block (unless it starts the file).",
                            "type": "bool", "default": False},
    }, **FILE_ATTRIBUTE_DOCS),
}

EXAMPLES = r"""
- name: Match users from the office network
  blockinfile:
    path: /etc/ssh/sshd_config
    append_newline: true
    prepend_newline: true
    block: |
      Match User ansible-agent
      PasswordAuthentication no

- name: Static addresses for the lab, in a block of their own
  blockinfile:
    path: /etc/hosts
    marker: "# {mark} lab hosts"
    block: |
      10.0.0.10 db1
      10.0.0.11 db2

- name: Remove the block again
  blockinfile:
    path: /etc/hosts
    marker: "# {mark} lab hosts"
    state: absent
"""

RETURN = {
    "msg": "Block inserted, Block removed, File created, or '' (and a note when attributes changed)",
    "backup_file": "The backup made, when backup was asked and the file changed",
    "diff": "Content before and after, and file attributes when they changed (diff mode)",
}

ARGUMENT_SPEC = dict({
    "path": {"type": "path", "required": True, "aliases": ["dest", "destfile", "name"]},
    "state": {"type": "str", "default": "present", "choices": ["absent", "present"]},
    "marker": {"type": "str", "default": "# {mark} ANSIBLE MANAGED BLOCK"},
    "block": {"type": "str", "default": "", "aliases": ["content"]},
    "insertafter": {"type": "str"},
    "insertbefore": {"type": "str"},
    "create": {"type": "bool", "default": False},
    "backup": {"type": "bool", "default": False},
    "validate": {"type": "str"},
    "encoding": {"type": "str", "default": "utf-8"},
    "marker_begin": {"type": "str", "default": "BEGIN"},
    "marker_end": {"type": "str", "default": "END"},
    "append_newline": {"type": "bool", "default": False},
    "prepend_newline": {"type": "bool", "default": False},
}, **FILE_ATTRIBUTE_SPEC)
SPEC_RULES = {"mutually_exclusive": [["insertbefore", "insertafter"]]}
SUPPORTS_CHECK_MODE = True

NEWLINE = b"\n"


def _encode(text):
    return text.encode("utf-8", "surrogateescape")


class Block(object):
    """The marker lines and the lines between them, as bytes."""

    def __init__(self, marker, marker_begin, marker_end, block):
        self.begin = _encode(marker.replace("{mark}", marker_begin)) + NEWLINE
        self.end = _encode(marker.replace("{mark}", marker_end)) + NEWLINE
        body = _encode(block)
        if body and not body.endswith(NEWLINE):
            body += NEWLINE
        self.lines = [self.begin, *split_lines(body), self.end] if body else []


def _insert_index(original, lines, insertafter, insertbefore):
    """The line index a new block goes to."""
    pattern = insertafter if insertafter not in (None, "EOF") else None
    if pattern is None and insertbefore not in (None, "BOF"):
        pattern = insertbefore
    if pattern is None:
        return 0 if insertbefore is not None else len(lines)  # BOF, or EOF
    expression = re.compile(_encode(pattern))
    found = None
    if expression.flags & re.MULTILINE:
        # A multi-line pattern is searched in the whole text; the line it ends (or starts) on counts.
        text = original or b""
        match = expression.search(text)
        if match:
            found = text.count(NEWLINE, 0, match.end() if insertafter else match.start())
    else:
        for index, text in enumerate(lines):
            if expression.search(text):
                found = index
    if found is None:
        return len(lines)
    return found + 1 if insertafter is not None else found


def update_block(original, block, present=True, insertafter=None, insertbefore=None, append_newline=False,
                 prepend_newline=False):
    """The file's new content: ``original`` (bytes or None) with ``block`` (a ``Block``) put in place or removed."""
    lines = split_lines(original or b"")
    wanted = block.lines if present else []
    if insertafter is None and insertbefore is None:
        insertafter = "EOF"
    begin = end = None
    for index, text in enumerate(lines):
        if text == block.begin:
            begin = index
        if text == block.end:
            end = index
    if begin is None or end is None:
        at = _insert_index(original, lines, insertafter, insertbefore)
    else:
        at = min(begin, end)
        del lines[at:max(begin, end) + 1]
    if at > 0 and not lines[at - 1].endswith(NEWLINE):
        lines[at - 1] += NEWLINE
    if prepend_newline and present and at != 0 and lines[at - 1] != NEWLINE:
        lines.insert(at, NEWLINE)
        at += 1
    lines[at:at] = wanted
    after = at + len(wanted)
    if append_newline and present and after < len(lines) and lines[after] != NEWLINE:
        lines.insert(after, NEWLINE)
    return b"".join(lines)


def run(module):
    params = module.params
    path = params["path"]
    fail_if_directory(module, path)
    if os.path.islink(path):
        path = os.path.realpath(path)
    original = read_content(module, path)
    encoding = params["encoding"]
    present = params["state"] == "present"
    if original is None:
        if not params["create"]:
            module.fail("Path %s does not exist !" % path, rc=257)
        if not present:
            return {"changed": False, "msg": "File %s not present" % path}
    block = Block(params["marker"], params["marker_begin"], params["marker_end"], params["block"])
    edited = update_block(as_utf8(module, original, encoding, path), block, present, params["insertafter"],
                          params["insertbefore"], params["append_newline"], params["prepend_newline"])
    new = from_utf8(module, edited, encoding, path)
    if new == original:
        msg = ""
    elif original is None:
        msg = "File created"
    elif not (present and block.lines):
        msg = "Block removed"
    else:
        msg = "Block inserted"
    return finish(module, path, original, new, msg, create_parents=True)
