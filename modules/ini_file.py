"""Manage single settings in INI files: add, change or remove an option, or a whole section."""

import os
import re

from modules._textfile import BACKUP_DOC, FILE_ATTRIBUTE_DOCS, FILE_ATTRIBUTE_SPEC, finish, read_content

DOCUMENTATION = {
    "short_description": "Tweak settings in INI files",
    "description": [
        "Adds, changes or removes individual settings in an INI-style file without managing the whole file. "
        "Missing sections are added; comments and the order of lines are kept.",
        "A commented-out option (';option = x' or '#option = x') is taken over when the option is set, unless "
        "modify_inactive_option is false.",
        "A missing final newline is added, even when nothing else changes. A file this module creates starts "
        "with an empty line, as Ansible's ini_file writes it.",
    ],
    "options": dict({
        "path": {"description": "The INI file; created when missing (unless create=false).", "type": "path",
                 "required": True, "aliases": ["dest"]},
        "section": {"description": "Section name (without brackets). Omitted or null: the option goes before "
                                   "the first section.", "type": "str"},
        "section_has": {"description": "Among several sections of the same name, the one holding these "
                                       "option/value pairs; a new section gets them too.", "type": "list",
                        "elements": "dict"},
        "option": {"description": "The option's name. Omitted with state=absent: the whole section is removed.",
                   "type": "str"},
        "value": {"description": "The option's value (same as values: [value]).", "type": "str"},
        "values": {"description": "Several values of the option, one line each.", "type": "list",
                   "elements": "str"},
        "state": {"description": "present: the option has the value(s); absent: it (or the section) is gone.",
                  "type": "str", "default": "present", "choices": ["absent", "present"]},
        "exclusive": {"description": "present: other lines of the option are removed; absent: every line of the "
                                     "option goes. false: only the given values are added or removed.",
                      "type": "bool", "default": True},
        "no_extra_spaces": {"description": "Write 'option=value' rather than 'option = value'.", "type": "bool",
                            "default": False},
        "ignore_spaces": {"description": "Leave a line alone when only the spaces around '=' differ.",
                          "type": "bool", "default": False},
        "allow_no_value": {"description": "Allow an option without a value (and without '=').", "type": "bool",
                           "default": False},
        "modify_inactive_option": {"description": "Take over a commented-out line of the option.",
                                   "type": "bool", "default": True},
        "create": {"description": "Create the file when it is missing; false fails instead.", "type": "bool",
                   "default": True},
        "follow": {"description": "When path is a symlink, edit the file it points to.", "type": "bool",
                   "default": False},
        "backup": BACKUP_DOC,
    }, **FILE_ATTRIBUTE_DOCS),
}

EXAMPLES = """
- name: A setting in the [drinks] section
  ini_file:
    path: /etc/conf
    section: drinks
    option: fav
    value: lemonade
    mode: "0600"
    backup: true

- name: Two lines of the same option
  ini_file:
    path: /etc/conf
    section: drinks
    option: beverage
    values: [coke, pepsi]

- name: Remove a whole section
  ini_file:
    path: /etc/conf
    section: obsolete
    state: absent
"""

RETURN = {
    "path": "The file managed",
    "msg": "OK, option added, option changed, section removed, section and option added or only section added",
    "backup_file": "The backup made, when backup was asked and the file changed",
    "diff": "Content before and after, and file attributes when they changed (diff mode)",
}

ARGUMENT_SPEC = dict({
    "path": {"type": "path", "required": True, "aliases": ["dest"]},
    "section": {"type": "str"},
    "section_has": {"type": "list", "elements": "dict",
                    "options": {"option": {"type": "str"}, "value": {"type": "str"}}},
    "option": {"type": "str"},
    "value": {"type": "str"},
    "values": {"type": "list", "elements": "str"},
    "state": {"type": "str", "default": "present", "choices": ["absent", "present"]},
    "exclusive": {"type": "bool", "default": True},
    "no_extra_spaces": {"type": "bool", "default": False},
    "ignore_spaces": {"type": "bool", "default": False},
    "allow_no_value": {"type": "bool", "default": False},
    "modify_inactive_option": {"type": "bool", "default": True},
    "create": {"type": "bool", "default": True},
    "follow": {"type": "bool", "default": False},
    "backup": {"type": "bool", "default": False},
}, **FILE_ATTRIBUTE_SPEC)
SPEC_RULES = {"mutually_exclusive": [["value", "values"]]}
SUPPORTS_CHECK_MODE = True

_BLANK_OR_COMMENT = re.compile(r"^[ \t]*([#;].*)?$")


class OptionLine(object):
    """Reads ``option`` lines: active ones (``option = value``) and, optionally, commented-out ones."""

    def __init__(self, option, inactive_too=True):
        name = re.escape(option)
        comment = "[#;]?" if inactive_too else ""
        self._any = re.compile(r"(%s)[ \t]*(%s)[ \t]*(=|$)[ \t]*(.*)" % (comment, name))
        self._active = re.compile(r"[ \t]*(%s)[ \t]*(=|$)[ \t]*(.*)" % name)

    def match(self, line):
        """(commented, value) for a line of the option, else None."""
        found = self._any.match(line)
        return (bool(found.group(1)), found.group(4)) if found else None

    def active_value(self, line):
        found = self._active.match(line)
        return found.group(3) if found else None


class IniEdit(object):
    """One edit of an INI file's lines (text, ends kept); ``changed`` and ``msg`` say what it did."""

    def __init__(self, lines, no_extra_spaces=False, ignore_spaces=False, allow_no_value=False,
                 modify_inactive_option=True):
        self.lines = list(lines)
        self.assignment = "%s=%s\n" if no_extra_spaces else "%s = %s\n"
        self.ignore_spaces = ignore_spaces
        self.allow_no_value = allow_no_value
        self.modify_inactive = modify_inactive_option
        self.changed = False
        self.msg = "OK"
        if not self.lines:
            self.lines = ["\n"]
        if not self.lines[-1].endswith("\n"):
            self.lines[-1] += "\n"
            self.changed = True

    # -- finding the section ------------------------------------------------------------------------------
    def section_bounds(self, section, section_has=None):
        """(start, end) of the section's lines after its header; start is None when there is no such section.

        No section: the lines before the first header.
        """
        headers = [index for index, line in enumerate(self.lines) if line.startswith("[")]
        if not section:
            return 0, headers[0] if headers else len(self.lines)
        for position, index in enumerate(headers):
            if not self.lines[index].startswith("[%s]" % section):
                continue
            end = headers[position + 1] if position + 1 < len(headers) else len(self.lines)
            if _has_all(self.lines[index + 1:end], section_has):
                return index + 1, end
        return None, None

    # -- editing ------------------------------------------------------------------------------------------
    def set_option(self, body, option, values, exclusive):
        """The section's ``body`` lines with ``option`` set to ``values`` (a list; [] for no value)."""
        matcher = OptionLine(option, self.modify_inactive)
        values = list(values)
        kept = set()  # indexes of lines that now hold a wanted value
        for index, line in enumerate(body):
            found = matcher.match(line)
            if found is None:
                continue
            value = found[1]
            if values and value in values:
                newline = ("%s\n" % option) if (not value and self.allow_no_value) else self.assignment % (
                    option, value)
                self._replace(body, index, newline, matcher)
                kept.add(index)
                values.remove(value)
            elif not values and self.allow_no_value:
                self._replace(body, index, "%s\n" % option, matcher)
                kept.add(index)
                values = None  # the bare option is there: nothing to add
                break
        if values and exclusive and not self.allow_no_value:
            for index, line in enumerate(body):
                if values and index not in kept and matcher.match(line):
                    self._replace(body, index, self.assignment % (option, values.pop(0)), matcher)
                    kept.add(index)
        if exclusive and not self.allow_no_value:
            removed = [index for index, line in enumerate(body) if index not in kept and matcher.match(line)]
            if removed:
                body = [line for index, line in enumerate(body) if index not in removed]
                self._note("option changed")
        if values is not None:
            body = self._append(body, option, values)
        return body

    def _replace(self, body, index, newline, matcher):
        old = body[index]
        if self.ignore_spaces:
            before, after = matcher.match(old), matcher.match(newline)
            differs = before[0] or before[1] != after[1]
        else:
            differs = old != newline
        if differs:
            body[index] = newline
            self._note("option changed")

    def _append(self, body, option, values):
        """``values`` added after the section's last line that is not blank or a comment."""
        new_lines = [self.assignment % (option, value) for value in values]
        if not values and self.allow_no_value:
            new_lines = ["%s\n" % option]
        if not new_lines:
            return body
        at = len(body)
        while at > 0 and _BLANK_OR_COMMENT.match(body[at - 1]):
            at -= 1
        self._note("option added")
        return body[:at] + new_lines + body[at:]

    def remove_option(self, body, option, values, exclusive):
        matcher = OptionLine(option)
        if exclusive:
            kept = [line for line in body if matcher.active_value(line) is None]
        elif values:
            kept = [line for line in body if matcher.active_value(line) not in values]
        else:
            kept = body
        if kept != body:
            self._note("option changed")
        return kept

    def _note(self, msg):
        self.changed = True
        self.msg = msg

    # -- the whole edit -----------------------------------------------------------------------------------
    def apply(self, section, option, values, state="present", exclusive=True, section_has=None):
        start, end = self.section_bounds(section, section_has)
        if start is None:
            if state == "present":
                self._add_section(section, option, values, section_has)
            return self.lines
        body = self.lines[start:end]
        if state == "present" and option:
            body = self.set_option(body, option, values, exclusive)
        elif state == "present":
            pass
        elif option:
            body = self.remove_option(body, option, values, exclusive)
        elif section:
            self.lines[start - 1:end] = []  # the header goes too
            self._note("section removed")
            return self.lines
        elif any(line.strip() for line in body):
            body = []
            self._note("section removed")
        self.lines[start:end] = body
        return self.lines

    def _add_section(self, section, option, values, section_has):
        self.lines.append("[%s]\n" % section)
        for pair in section_has or ():
            self.lines.append(self.assignment % (pair.get("option"), pair.get("value")))
        if option and values:
            self.lines.extend(self.assignment % (option, value) for value in values)
            self._note("section and option added")
        elif option and self.allow_no_value:
            self.lines.append("%s\n" % option)
            self._note("section and option added")
        else:
            self._note("only section added")


def _has_all(body, section_has):
    for pair in section_has or ():
        matcher = OptionLine(pair.get("option") or "")
        if not any((found is not None and found[1] == pair.get("value"))
                   for found in (matcher.match(line) for line in body)):
            return False
    return True


def split_text_lines(text):
    """Lines ending in ``\n`` (a CRLF file reads as LF lines, as Python's text mode reads it)."""
    parts = text.replace("\r\n", "\n").split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def unique(values):
    seen = []
    for value in values:
        if value is not None and value not in seen:
            seen.append(value)
    return seen


def run(module):
    params = module.params
    path = params["path"]
    if params["follow"] and os.path.islink(path):
        path = os.path.realpath(path)
    if module.isdir(path):
        module.fail("Path %s is a directory !" % path, rc=256)
    values = [params["value"]] if params["value"] is not None else unique(params["values"] or [])
    if params["state"] == "present" and not params["allow_no_value"] and not values:
        module.fail("Parameter 'value(s)' must be defined if state=present and allow_no_value=False.")
    original = read_content(module, path)
    if original is None and not params["create"]:
        module.fail("Destination %s does not exist!" % path, rc=257)
    text = (original or b"").decode("utf-8", "surrogateescape")
    if text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte order mark is dropped, as Ansible reads the file
    edit = IniEdit(split_text_lines(text), params["no_extra_spaces"], params["ignore_spaces"],
                   params["allow_no_value"], params["modify_inactive_option"])
    lines = edit.apply(params["section"], params["option"], values, params["state"], params["exclusive"],
                       params["section_has"])
    # Written only when the edit changed something: an empty file stays empty when there is nothing to do.
    new = "".join(lines).encode("utf-8", "surrogateescape") if edit.changed else original
    result = finish(module, path, original, new, edit.msg, create_parents=True)
    result["path"] = params["path"]
    return result
