"""Add, enable and remove one-line apt sources (deb/deb-src lines) in sources.list and sources.list.d/*.list."""

import glob
import os
import re

from modules._aptsources import DEFAULT_MODE, SOURCES_DIR, SOURCES_LIST, UPDATE_OPTIONS, SourceFiles, apply_and_update
from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Add and remove APT repositories",
    "description": [
        "Keeps one source line present or absent among /etc/apt/sources.list and /etc/apt/sources.list.d/*.list. "
        "Lines are compared with their whitespace collapsed; a matching line that is commented out is enabled "
        "where it is rather than added again; absent removes every enabled matching line, and a file left "
        "without lines is removed.",
        "Only the lines that change are rewritten: the rest of a file (comments, spacing) stays as it was.",
        "A new line goes to sources.list.d/FILENAME.list, FILENAME derived from the repository's address when "
        "filename is not given (deb http://example.com/debian stable main: example_com_debian.list).",
        "After a change apt-get update runs (update_cache); when it fails the files are put back as they were.",
        "ppa: repositories need Launchpad and Ubuntu; they are refused with a clear message.",
    ],
    "options": {
        "repo": {"description": "A sources.list line: deb or deb-src, options in [], URI, suite, components.",
                 "type": "str", "required": True},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "mode": {"description": "Permissions of a new source file (default 0644).", "type": "raw"},
        "filename": {"description": "Name of the file in sources.list.d, without .list.", "type": "str"},
        "codename": {"description": "Distribution codename for ppa: repositories (accepted; ppa: is refused).",
                     "type": "str"},
        "validate_certs": {"description": "Accepted for compatibility: nothing is downloaded.", "type": "bool",
                           "default": True},
        "install_python_apt": {"description": "Accepted for compatibility: python3-apt is not needed.",
                               "type": "bool", "default": True},
    },
}
DOCUMENTATION["options"].update(UPDATE_OPTIONS)

EXAMPLES = """
- name: Add a repository to sources.list.d/example_com_debian.list
  apt_repository:
    repo: deb [signed-by=/etc/apt/keyrings/example.gpg] http://example.com/debian bookworm main
    state: present

- name: Add it under a name of your own, without updating the lists
  apt_repository:
    repo: deb http://example.com/debian bookworm main
    filename: example
    update_cache: false
"""

RETURN = {
    "repo": "The repository line as given",
    "state": "present or absent",
    "sources_added": "Source files created",
    "sources_removed": "Source files removed",
    "diff": "Each changed file before and after",
}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

SOURCE_TYPES = ("deb", "deb-src")


class SourceLine(object):
    """One line of a .list file: whether it is a source, enabled, its normalized source text and comment."""

    def __init__(self, text):
        self.text = text
        body = text.strip()
        self.enabled = not body.startswith("#")
        if not self.enabled:
            body = body[1:]
        self.comment = ""
        mark = body.find("#")
        if mark > 0:
            self.comment = body[mark + 1:].strip()
            body = body[:mark]
        words = body.split()
        self.source = " ".join(words) if words and words[0] in SOURCE_TYPES else None

    def enabled_text(self):
        return self.source + (" # " + self.comment if self.comment else "") + "\n"


def parse_repo(repo, module):
    if repo.startswith("ppa:"):
        module.fail("ppa: repositories need Launchpad and an Ubuntu host; give the deb line instead: %s" % repo)
    line = SourceLine(repo)
    if not line.enabled or line.source is None:
        module.fail("Invalid repository string: %s" % repo)
    return line.source


def suggested_filename(source, filename):
    """sources.list.d/NAME.list for a new line: ``filename``, or its URI's host and path as words joined by _."""
    if filename:
        name = filename
    else:
        text = re.sub(r"\[[^\]]+\]", "", source)
        text = re.sub(r"\w+://", "", text)
        address = next(word for word in text.split() if word not in SOURCE_TYPES)
        address = address.split("@", 1)[-1]  # no user name or password in a file name
        name = "_".join(re.sub("[^a-zA-Z0-9]", " ", address).split())
    return os.path.join(SOURCES_DIR, name + ".list")


def source_files():
    paths = [SOURCES_LIST] if os.path.isfile(SOURCES_LIST) else []
    return paths + sorted(glob.glob(os.path.join(SOURCES_DIR, "*.list")))


def edit(files, path, source, state):
    """Enable (present) or drop (absent) the lines of ``path`` that hold ``source``; True when one was there."""
    content = files.read(path)
    if content is None:
        return False
    lines = content.decode("utf-8", "surrogateescape").splitlines(True)
    found, result = False, []
    for text in lines:
        line = SourceLine(text)
        if line.source != source:
            result.append(text)
        elif state == "present":
            found = True
            result.append(text if line.enabled else line.enabled_text())
        elif not line.enabled:
            result.append(text)
    new = "".join(result).encode("utf-8", "surrogateescape")
    files.set(path, new if result else None)
    return found


def run(module):
    params = module.params
    if not params["repo"].strip():
        module.fail("Please set argument 'repo' to a non-empty value")
    source = parse_repo(params["repo"], module)
    files = SourceFiles(module)
    found = False
    for path in source_files():
        found = edit(files, path, source, params["state"]) or found
    if params["state"] == "present" and not found:
        target = suggested_filename(source, params["filename"])
        existing = files.read(target) or b""
        if existing and not existing.endswith(b"\n"):
            existing += b"\n"
        files.set(target, existing + (source + "\n").encode("utf-8"))
    changed = bool(files.changed())
    result = {"changed": changed, "repo": params["repo"], "state": params["state"],
              "sources_added": files.added(), "sources_removed": files.removed()}
    if changed and module.diff_mode:
        result["diff"] = files.diffs()
    if changed and not module.check_mode:
        mode = params["mode"] if params["mode"] is not None else DEFAULT_MODE
        result["cache_updated"] = apply_and_update(module, files, mode)
    return result
