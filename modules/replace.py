"""Replace every instance of a pattern in a file, optionally only between two other patterns."""

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

DOCUMENTATION = {
    "short_description": "Replace all instances of a particular string in a file using a back-referenced regular "
                         "expression",
    "description": [
        "Replaces every match of regexp in the file (in Python's re syntax, ^ and $ matching at each line). "
        "It is only idempotent when the replacement no longer matches regexp.",
        "after and before narrow the replacement to the text after the first match of after and/or before the "
        "next match of before.",
    ],
    "options": dict({
        "path": {"description": "The file to modify.", "type": "path", "required": True,
                 "aliases": ["dest", "destfile", "name"]},
        "regexp": {"description": "Regular expression to look for (multiline: ^ and $ match at each line).",
                   "type": "str", "required": True},
        "replace": {"description": "What each match becomes; may use the groups (\\1, \\g<name>). Empty removes "
                                   "the matches.", "type": "str", "default": ""},
        "after": {"description": "Only replace in the text after the first match of this expression (. matches "
                                 "newlines here).", "type": "str"},
        "before": {"description": "Only replace in the text before this expression (. matches newlines here).",
                   "type": "str"},
        "encoding": {"description": "The file's character encoding.", "type": "str", "default": "utf-8"},
        "backup": BACKUP_DOC,
        "validate": VALIDATE_DOC,
    }, **FILE_ATTRIBUTE_DOCS),
}

EXAMPLES = r"""
- name: Rename the host everywhere in /etc/hosts
  replace:
    path: /etc/hosts
    regexp: '(\s+)old\.host\.name(\s+.*)?$'
    replace: '\1new.host.name\2'

- name: Comment out the lines of one virtual host
  replace:
    path: /etc/apache2/sites-available/default.conf
    after: '<VirtualHost [*]>'
    before: '</VirtualHost>'
    regexp: '^(.+)$'
    replace: '# \1'
"""

RETURN = {
    "msg": "'N replacements made', the after/before pattern that matched nothing, or ''",
    "backup_file": "The backup made, when backup was asked and the file changed",
    "rc": "0",
    "diff": "Content before and after (diff mode)",
}

ARGUMENT_SPEC = dict({
    "path": {"type": "path", "required": True, "aliases": ["dest", "destfile", "name"]},
    "regexp": {"type": "str", "required": True},
    "replace": {"type": "str", "default": ""},
    "after": {"type": "str"},
    "before": {"type": "str"},
    "encoding": {"type": "str", "default": "utf-8"},
    "backup": {"type": "bool", "default": False},
    "validate": {"type": "str"},
}, **FILE_ATTRIBUTE_SPEC)
SUPPORTS_CHECK_MODE = True


class SectionNotFound(Exception):
    """The after/before patterns match nothing: there is nowhere to replace."""


def _section_pattern(after, before):
    if after and before:
        return "%s(?P<subsection>.*?)%s" % (after, before)
    if after:
        return "%s(?P<subsection>.*)" % after
    if before:
        return "(?P<subsection>.*)%s" % before
    return None


def replace_text(contents, regexp, replacement, after=None, before=None):
    """``contents`` with every match of ``regexp`` (within the after/before section) replaced; (text, count).

    Raises ``SectionNotFound`` (its message is the section pattern) and ``re.error``.
    """
    start, end = 0, len(contents)
    pattern = _section_pattern(after, before)
    if pattern is not None:
        match = re.search(pattern, contents, re.DOTALL)
        if not match:
            raise SectionNotFound(pattern)
        start, end = match.start("subsection"), match.end("subsection")
    section = contents[start:end]
    replaced, count = re.subn(re.compile(regexp, re.MULTILINE), replacement, section)
    if count == 0 or replaced == section:
        return contents, 0
    return contents[:start] + replaced + contents[end:], count


def run(module):
    params = module.params
    path = params["path"]
    fail_if_directory(module, path)
    if os.path.islink(path):
        path = os.path.realpath(path)
    original = read_content(module, path)
    if original is None:
        module.fail("Path %s does not exist !" % path, rc=257)
    encoding = params["encoding"]
    try:
        contents = original.decode(encoding)
    except (LookupError, UnicodeDecodeError) as exc:
        module.fail("Unable to read the contents of %s as %s: %s" % (path, encoding, exc))
    try:
        text, count = replace_text(contents, params["regexp"], params["replace"], params["after"], params["before"])
    except SectionNotFound as exc:
        return {"changed": False, "rc": 0,
                "msg": "Pattern for before/after params did not match the given file: %s" % exc}
    except (re.error, IndexError) as exc:
        module.fail("Unable to process replace due to error: %s" % exc)
    msg = "%s replacements made" % count if count else ""
    result = finish(module, path, original, text.encode(encoding), msg, header="%s")  # headed by the path alone
    result["rc"] = 0
    return result
