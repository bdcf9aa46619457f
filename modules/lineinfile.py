"""Ensure a particular line is in a file, or replace an existing line using a regular expression."""

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
    "short_description": "Manage lines in text files",
    "description": [
        "Ensures a particular line is in a file, or replaces an existing line found by a regular expression or a "
        "fixed string. For several lines or a whole block use blockinfile; for the whole file, copy or template.",
        "The line is found by regexp (the last matching line, or the first with firstmatch), by search_string, or "
        "else by being there exactly. When nothing is found it is inserted after insertafter / before "
        "insertbefore (the last line matching them, or the first with firstmatch), or at the end of the file.",
    ],
    "options": dict({
        "path": {"description": "The file to modify.", "type": "path", "required": True,
                 "aliases": ["dest", "destfile", "name"]},
        "state": {"description": "Whether the line should be there or not.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "regexp": {"description": "Regular expression looked for in every line. With state=present the last "
                                  "matching line is replaced; with state=absent every matching line is removed.",
                   "type": "str", "aliases": ["regex"]},
        "search_string": {"description": "Literal string looked for in every line (instead of regexp).",
                          "type": "str"},
        "line": {"description": "The line to insert or replace with (required with state=present). With backrefs "
                                "it may use the regexp's groups (\\1, \\g<name>).", "type": "str",
                 "aliases": ["value"]},
        "backrefs": {"description": "Expand regexp's groups in line; when regexp matches nothing the file is left "
                                    "unchanged.", "type": "bool", "default": False},
        "insertafter": {"description": "Insert after the last line matching this regular expression; EOF (the "
                                       "default) for the end of the file, BOF for its beginning.", "type": "str"},
        "insertbefore": {"description": "Insert before the last line matching this regular expression; BOF for the "
                                        "beginning of the file.", "type": "str"},
        "firstmatch": {"description": "insertafter/insertbefore and regexp use the first matching line, not the "
                                      "last.", "type": "bool", "default": False},
        "create": {"description": "Create the file (and its directories) when it is missing; without it a missing "
                                  "file fails.", "type": "bool", "default": False},
        "backup": BACKUP_DOC,
        "validate": VALIDATE_DOC,
        "encoding": ENCODING_DOC,
    }, **FILE_ATTRIBUTE_DOCS),
}

EXAMPLES = r"""
- name: SELinux in enforcing mode
  lineinfile:
    path: /etc/selinux/config
    regexp: '^SELINUX='
    line: SELINUX=enforcing

- name: Drop the wheel group from sudoers
  lineinfile:
    path: /etc/sudoers
    state: absent
    regexp: '^%wheel'
    validate: /usr/sbin/visudo -cf %s

- name: Listen on the host's own address, keeping the rest of the line
  lineinfile:
    path: /etc/app.conf
    regexp: '^(listen\s+)\S+(.*)$'
    line: '\g<1>{{ ansible_host }}\2'
    backrefs: true

- name: A line after the [main] section header
  lineinfile:
    path: /etc/app.ini
    insertafter: '^\[main\]'
    line: 'debug = false'
    create: true
    mode: "0644"
"""

RETURN = {
    "msg": "line added, line replaced, N line(s) removed, or '' (and a note when attributes changed)",
    "backup": "The backup made, when backup was asked and the file changed ('' otherwise)",
    "found": "With state=absent: how many lines were removed",
    "diff": "Content before and after, and file attributes when they changed (diff mode)",
}

ARGUMENT_SPEC = dict({
    "path": {"type": "path", "required": True, "aliases": ["dest", "destfile", "name"]},
    "state": {"type": "str", "default": "present", "choices": ["absent", "present"]},
    "regexp": {"type": "str", "aliases": ["regex"]},
    "search_string": {"type": "str"},
    "line": {"type": "str", "aliases": ["value"]},
    "backrefs": {"type": "bool", "default": False},
    "insertafter": {"type": "str"},
    "insertbefore": {"type": "str"},
    "firstmatch": {"type": "bool", "default": False},
    "create": {"type": "bool", "default": False},
    "backup": {"type": "bool", "default": False},
    "validate": {"type": "str"},
    "encoding": {"type": "str", "default": "utf-8"},
}, **FILE_ATTRIBUTE_SPEC)
SPEC_RULES = {"mutually_exclusive": [["insertbefore", "insertafter"], ["regexp", "search_string"],
                                     ["backrefs", "search_string"]]}
SUPPORTS_CHECK_MODE = True

NEWLINE = b"\n"


def _encode(text):
    return text.encode("utf-8", "surrogateescape")


def _bare(line):
    return line.rstrip(b"\r\n")


class LineMatcher(object):
    """Finds the line a task is about: by regexp, by search_string, or (else) by being there exactly."""

    def __init__(self, regexp=None, search_string=None, line=None):
        self.regexp = re.compile(_encode(regexp)) if regexp is not None else None
        self.search_string = _encode(search_string) if search_string is not None else None
        self.line = _encode(line) if line is not None else None

    def search(self, text):
        """The regexp's match object, True for a search_string hit, or None."""
        if self.regexp is not None:
            return self.regexp.search(text)
        if self.search_string is not None:
            return True if self.search_string in text else None
        return None

    def matches_exactly(self, text):
        return self.line is not None and _bare(text) == self.line


def _last_or_first(lines, test, first):
    """Index and value of the last line for which ``test`` is true (the first with ``first``): (-1, None)."""
    found = (-1, None)
    for index, text in enumerate(lines):
        value = test(text)
        if value:
            found = (index, value)
            if first:
                break
    return found


def _insert_position(lines, insertafter, insertbefore, firstmatch):
    """Where an insertafter/insertbefore regexp puts the line; -1 when it matches no line."""
    pattern = insertafter if insertafter not in (None, "BOF", "EOF") else None
    if pattern is None and insertbefore not in (None, "BOF"):
        pattern = insertbefore
    if pattern is None:
        return -1
    expression = re.compile(_encode(pattern))
    index, _ = _last_or_first(lines, lambda text: expression.search(text) is not None, firstmatch)
    if index == -1:
        return -1
    return index + 1 if insertafter else index


def _ensure_line_end(lines):
    if lines and not lines[-1].endswith((b"\n", b"\r")):
        lines[-1] += NEWLINE


def ensure_present(lines, line, regexp=None, search_string=None, insertafter=None, insertbefore=None,
                   backrefs=False, firstmatch=False):
    """``lines`` (bytes, ends kept) with ``line`` present as Ansible's lineinfile places it; (lines, msg).

    ``msg`` is 'line added', 'line replaced' or '' (nothing to do). The list given is not modified.
    """
    lines = list(lines)
    if insertafter is None and insertbefore is None:
        insertafter = "EOF"
    matcher = LineMatcher(regexp, search_string, line)
    wanted = matcher.line
    index, match = -1, None
    if regexp is not None or search_string is not None:
        index, match = _last_or_first(lines, matcher.search, firstmatch)
    insert_at = -1
    if match is None:
        # Not found by regexp/search_string: the exact line anywhere (its last occurrence) counts as found.
        index = max((i for i, text in enumerate(lines) if matcher.matches_exactly(text)), default=-1)
        insert_at = _insert_position(lines, insertafter, insertbefore, firstmatch)
    if index != -1:
        new_line = match.expand(wanted) if backrefs and match is not None and match is not True else wanted
        if not new_line.endswith(NEWLINE):
            new_line += NEWLINE
        if lines[index] == new_line:
            return lines, ""
        lines[index] = new_line
        return lines, "line replaced"
    if backrefs:
        return lines, ""  # the groups to expand are missing: nothing safe to write
    if "BOF" in (insertbefore, insertafter):
        lines.insert(0, wanted + NEWLINE)
    elif insertafter == "EOF" or insert_at == -1:
        _ensure_line_end(lines)
        lines.append(wanted + NEWLINE)
    elif insertafter:
        # Not again when the line after the match already is the line.
        neighbour = lines[insert_at] if insert_at < len(lines) else None
        if neighbour is not None and _bare(neighbour) == wanted:
            return lines, ""
        if insert_at == len(lines):
            _ensure_line_end(lines)
        lines.insert(insert_at, wanted + NEWLINE)
    else:
        lines.insert(insert_at, wanted + NEWLINE)
    return lines, "line added"


def ensure_absent(lines, line=None, regexp=None, search_string=None):
    """``lines`` without every line matching regexp, search_string or (else) ``line`` exactly; (lines, found)."""
    matcher = LineMatcher(regexp, search_string, line)
    if regexp is not None or search_string is not None:
        def found(text):
            return bool(matcher.search(text))
    else:
        found = matcher.matches_exactly
    kept = [text for text in lines if not found(text)]
    return kept, len(lines) - len(kept)


def _warn_empty_pattern(module, params):
    for name, what in (("regexp", "regular expression"), ("search_string", "search string")):
        if params[name] == "":
            note = (" If this is desired, use '^' to match every line in the file and avoid this warning."
                    if name == "regexp" else "")
            module.warn("The %s is an empty string, which will match every line in the file. This may have "
                        "unintended consequences, such as replacing the last line in the file rather than "
                        "appending.%s" % (what, note))


def run(module):
    params = module.params
    path = params["path"]
    fail_if_directory(module, path)
    _warn_empty_pattern(module, params)
    if os.path.islink(path):
        path = os.path.realpath(path)  # edit the file a link points to, never replace the link
    original = read_content(module, path)
    encoding = params["encoding"]
    text = as_utf8(module, original, encoding, path)  # the lines as the patterns are written
    if params["state"] == "absent":
        if params["regexp"] is None and params["search_string"] is None and params["line"] is None:
            module.fail("one of line, search_string, or regexp is required with state=absent")
        if original is None:
            return {"changed": False, "msg": "file not present"}
        lines, found = ensure_absent(split_lines(text), params["line"], params["regexp"], params["search_string"])
        new = from_utf8(module, b"".join(lines), encoding, path)
        result = finish(module, path, original, new, "%s line(s) removed" % found if found else "")
        result["found"] = found
    else:
        if params["backrefs"] and params["regexp"] is None:
            module.fail("regexp is required with backrefs=true")
        if params["line"] is None:
            module.fail("line is required with state=present")
        if original is None and not params["create"]:
            module.fail("Destination %s does not exist !" % path, rc=257)
        lines, msg = ensure_present(split_lines(text or b""), params["line"], params["regexp"],
                                    params["search_string"], params["insertafter"], params["insertbefore"],
                                    params["backrefs"], params["firstmatch"])
        result = finish(module, path, original, from_utf8(module, b"".join(lines), encoding, path), msg,
                        create_parents=True)
    result["backup"] = result.pop("backup_file", "")
    return result
