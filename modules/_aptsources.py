"""What apt_repository and deb822_repository share: editing apt's source files as one change, and the cache update
that follows it, undone when the update fails (a source apt cannot read would break every later apt task)."""

import os

from modules._apt import Apt
from modules._textfile import content_diff
from modules._utils import error_text, remove_quietly

SOURCES_LIST = "/etc/apt/sources.list"
SOURCES_DIR = "/etc/apt/sources.list.d"
DEFAULT_MODE = 0o644

# The options both modules document for the cache update that follows a change.
UPDATE_OPTIONS = {
    "update_cache": {"description": "Run apt-get update after a change (never in check mode).", "type": "bool",
                     "default": True, "aliases": ["update-cache"]},
    "update_cache_retries": {"description": "How often to try apt-get update.", "type": "int", "default": 5},
    "update_cache_retry_max_delay": {"description": "Longest pause between two tries, in seconds.",
                                     "type": "int", "default": 12},
}


def read_bytes(path):
    """A file's content, or None when it is missing; a file that cannot be read fails clearly."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


class SourceFiles(object):
    """Source files by path: their content before and after this task, written together and undone together."""

    def __init__(self, module):
        self.module = module
        self.before = {}
        self.after = {}

    def read(self, path):
        if path not in self.before:
            try:
                self.before[path] = read_bytes(path)
            except (IOError, OSError) as exc:
                self.module.fail("Could not read %s: %s" % (path, error_text(exc)))
            self.after[path] = self.before[path]
        return self.after[path]

    def set(self, path, content):
        """The file's new content; None removes it."""
        self.read(path)
        self.after[path] = content

    def changed(self):
        return sorted(path for path in self.after if self.after[path] != self.before[path])

    def added(self):
        return [path for path in self.changed() if self.before[path] is None]

    def removed(self):
        return [path for path in self.changed() if self.after[path] is None]

    def diffs(self):
        result = []
        for path in self.changed():
            entry = content_diff(path, self.before[path], self.after[path] or b"")
            if self.before[path] is None:
                entry["before_header"] = "/dev/null"
            if self.after[path] is None:
                entry["after_header"] = "/dev/null"
            result.append(entry)
        return result

    def write(self, mode):
        """Write every changed file (a new one gets ``mode``); a file whose content is None is removed."""
        for path in self.changed():
            self._put(path, self.after[path], mode if self.before[path] is None else None)

    def revert(self):
        for path in self.changed():
            self._put(path, self.before[path], None)

    def _put(self, path, content, mode):
        target = os.path.realpath(path)  # a linked source file is written where it points, the link stays
        if content is None:
            remove_quietly(target)
            return
        directory = os.path.dirname(target)
        if not os.path.isdir(directory):
            try:
                os.makedirs(directory, 0o755)
            except OSError as exc:
                self.module.fail("Failed to create directory %s: %s" % (directory, error_text(exc)))
        self.module.atomic_write(target, content)
        if mode is not None:
            self.module.set_file_attributes(target, mode)


def apply_and_update(module, files, mode):
    """Write the changed files and, when asked, update apt's lists; a failed update puts the files back.

    Returns whether the cache was updated.
    """
    params = module.params
    files.write(mode)
    if not params["update_cache"]:
        return False
    apt = Apt(module, {"cache_valid_time": 0, "update_cache_retries": params["update_cache_retries"],
                       "update_cache_retry_max_delay": params["update_cache_retry_max_delay"],
                       "lock_timeout": 60})
    try:
        apt.update_cache()
    except BaseException:
        files.revert()
        raise
    return True
