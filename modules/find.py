"""Find files, directories or links by name, age, size and content, and return what stat says of each."""

import errno
import fnmatch
import locale
import os
import re
import stat
import time

from modules._fileinfo import describe
from modules._utils import file_checksum, parse_mode

DOCUMENTATION = {
    "short_description": "Return a list of files based on specific criteria",
    "description": [
        "Returns the files (or directories, links, anything) below the given paths that pass every criterion "
        "given. Names are matched without their directory. It changes nothing.",
        "Hidden entries (names starting with '.') are left out unless hidden is true; the walk still descends "
        "into hidden directories, as Ansible's find does.",
    ],
    "options": {
        "paths": {"description": "Directories to search.", "type": "list", "elements": "str", "required": True,
                  "aliases": ["name", "path"]},
        "patterns": {"description": "Names to select: shell globs, or Python regular expressions with use_regex "
                                    "(matched from the name's start). Any one matching is enough; none selects "
                                    "everything.", "type": "list", "elements": "str", "default": [],
                     "aliases": ["pattern"]},
        "excludes": {"description": "Names to leave out, read like patterns.", "type": "list", "elements": "str",
                     "aliases": ["exclude"]},
        "use_regex": {"description": "patterns and excludes are regular expressions, not globs.", "type": "bool",
                      "default": False},
        "contains": {"description": "Regular expression a file's content must match (a line's start, or "
                                    "anywhere with read_whole_file). Only for file_type file.", "type": "str"},
        "read_whole_file": {"description": "Search contains in the whole file rather than line by line.",
                            "type": "bool", "default": False},
        "encoding": {"description": "Encoding files are read in for contains (by default the locale's, as Python "
                                    "reads them). A file that does not decode in it, or an unknown encoding, "
                                    "skips the whole path with a warning, as Ansible does.", "type": "str"},
        "file_type": {"description": "What to return.", "type": "str", "default": "file",
                      "choices": ["any", "directory", "file", "link"]},
        "age": {"description": "Select entries at least this old (e.g. 30, 2h, 1d, 4w); a negative age selects "
                               "entries at most this old.", "type": "str"},
        "age_stamp": {"description": "Which time age is measured from.", "type": "str", "default": "mtime",
                      "choices": ["atime", "ctime", "mtime"]},
        "size": {"description": "Select files at least this big (e.g. 10k, 1m, 2g); a negative size selects "
                                "files at most this big.", "type": "str"},
        "recurse": {"description": "Descend into directories.", "type": "bool", "default": False},
        "depth": {"description": "How many levels to descend at most (with recurse).", "type": "int"},
        "hidden": {"description": "Include names starting with '.'.", "type": "bool", "default": False},
        "follow": {"description": "Follow symlinks to directories while walking.", "type": "bool",
                   "default": False},
        "get_checksum": {"description": "Add the checksum of each regular file.", "type": "bool",
                         "default": False},
        "checksum_algorithm": {"description": "Algorithm of the checksum.", "type": "str", "default": "sha1",
                               "choices": ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"],
                               "aliases": ["checksum", "checksum_algo"]},
        "mode": {"description": "Select entries with these permissions (octal or symbolic).", "type": "raw"},
        "exact_mode": {"description": "mode must match exactly; false: any of its bits is enough.",
                       "type": "bool", "default": True},
        "limit": {"description": "Stop after this many matches.", "type": "int"},
    },
}

EXAMPLES = """
- name: Log files older than a week
  find:
    paths: /var/log/app
    patterns: "*.log"
    age: 1w
    recurse: true
  register: old_logs

- name: Remove them
  file:
    path: "{{ item.path }}"
    state: absent
  loop: "{{ old_logs.files }}"

- name: Configuration files that still listen everywhere
  find:
    paths: /etc/app
    contains: '^listen\\s+0\\.0\\.0\\.0'
"""

RETURN = {
    "files": "What was found: for each, path and what stat reports (mode, isdir, isreg, islnk, uid, gid, size, "
             "mtime, pw_name, gr_name, ... and checksum with get_checksum)",
    "matched": "How many were found",
    "examined": "How many entries were looked at",
    "skipped_paths": "Paths that could not be searched, with the reason",
    "msg": "All paths examined, or a note that some were skipped",
}

ARGUMENT_SPEC = {
    "paths": {"type": "list", "elements": "str", "required": True, "aliases": ["name", "path"]},
    "patterns": {"type": "list", "elements": "str", "default": [], "aliases": ["pattern"]},
    "excludes": {"type": "list", "elements": "str", "aliases": ["exclude"]},
    "use_regex": {"type": "bool", "default": False},
    "contains": {"type": "str"},
    "read_whole_file": {"type": "bool", "default": False},
    "encoding": {"type": "str"},
    "file_type": {"type": "str", "default": "file", "choices": ["any", "directory", "file", "link"]},
    "age": {"type": "str"},
    "age_stamp": {"type": "str", "default": "mtime", "choices": ["atime", "ctime", "mtime"]},
    "size": {"type": "str"},
    "recurse": {"type": "bool", "default": False},
    "depth": {"type": "int"},
    "hidden": {"type": "bool", "default": False},
    "follow": {"type": "bool", "default": False},
    "get_checksum": {"type": "bool", "default": False},
    "checksum_algorithm": {"type": "str", "default": "sha1", "aliases": ["checksum", "checksum_algo"],
                           "choices": ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"]},
    "mode": {"type": "raw"},
    "exact_mode": {"type": "bool", "default": True},
    "limit": {"type": "int"},
}
SUPPORTS_CHECK_MODE = True

_AGE_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_SIZE_UNITS = {"b": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}


def parse_quantity(text, units):
    """'2h' / '-10k' / '30' in ``units``; None when it does not read as one."""
    found = re.match(r"^(-?\d+)([a-z])?$", str(text).strip().lower())
    if not found or (found.group(2) and found.group(2) not in units):
        return None
    return int(found.group(1)) * units.get(found.group(2), 1)


def at_least(value, threshold):
    """A threshold as find reads age and size: >= it, or <= its absolute value when it is negative."""
    return threshold is None or (value >= threshold if threshold >= 0 else value <= -threshold)


class NameFilter(object):
    """patterns and excludes, as globs or regular expressions (matched from the name's start)."""

    def __init__(self, patterns, excludes, use_regex):
        if use_regex:
            self.patterns = [re.compile(p).match for p in patterns or [".*"]]
            self.excludes = [re.compile(p).match for p in excludes or []]
        else:
            self.patterns = [self._glob(p) for p in patterns or ["*"]]
            self.excludes = [self._glob(p) for p in excludes or []]

    @staticmethod
    def _glob(pattern):
        return lambda name: fnmatch.fnmatch(name, pattern)

    def __call__(self, name):
        return any(test(name) for test in self.patterns) and not any(test(name) for test in self.excludes)


def content_matches(path, expression, whole_file, encoding=None):
    """True when the file's text matches ``expression`` (compiled): a line's start, or anywhere in it all.

    Text that does not decode in ``encoding`` (without one, the locale's, as Python's ``open`` reads it), or an
    encoding Python does not know, raises OSError, which skips the whole search path as Ansible does."""
    try:
        with open(path, "r", encoding=encoding) as handle:
            if whole_file:
                return expression.search(handle.read()) is not None
            return any(expression.match(line) for line in handle)
    except LookupError as exc:
        raise OSError(str(exc))  # Python's own words, as Ansible's: "unknown encoding: NAME"
    except UnicodeDecodeError:
        # ansible-core 2.21's words (2.19: "Failed to read the file PATH due to an encoding error. ...")
        named = encoding or "%s (Python default)" % locale.getpreferredencoding(False).lower()
        raise OSError("Failed to decode the file %r with encoding: %s" % (path, named))
    except (IOError, OSError):
        return False


class Criteria(object):
    """Every test an entry must pass, built once from the parameters."""

    def __init__(self, module):
        params = module.params
        self.module = module
        self.params = params
        self.names = NameFilter(params["patterns"], params["excludes"], params["use_regex"])
        self.age = self._quantity("age", _AGE_UNITS)
        self.size = self._quantity("size", _SIZE_UNITS)
        self.contains = re.compile(params["contains"]) if params["contains"] is not None else None
        self.now = time.time()
        self.mode = None
        if params["mode"] is not None:
            self.mode = parse_mode(params["mode"], 0, False, module)

    def _quantity(self, name, units):
        text = self.params[name]
        if text is None:
            return None
        value = parse_quantity(text, units)
        if value is None:
            self.module.fail("failed to process %s" % name, **{name: text})
        return value

    def _mode_matches(self, info):
        if self.mode is None:
            return True
        current = stat.S_IMODE(info.st_mode)
        return current == self.mode if self.params["exact_mode"] else bool(current & self.mode)

    def selects(self, name, path, info):
        kind = self.params["file_type"]
        mode = info.st_mode
        if kind == "directory" and not stat.S_ISDIR(mode):
            return False
        if kind == "file" and not stat.S_ISREG(mode):
            return False
        if kind == "link" and not stat.S_ISLNK(mode):
            return False
        if not (self.names(name) and self._mode_matches(info)):
            return False
        if not at_least(self.now - getattr(info, "st_" + self.params["age_stamp"]), self.age):
            return False
        if stat.S_ISREG(mode) and kind in ("file", "any") and not at_least(info.st_size, self.size):
            return False
        if kind == "file" and self.contains is not None:
            return content_matches(path, self.contains, self.params["read_whole_file"], self.params["encoding"])
        return True


class Search(object):
    def __init__(self, module):
        self.module = module
        self.params = module.params
        self.criteria = Criteria(module)
        self.files = []
        self.examined = 0
        self.skipped = {}

    def full(self):
        limit = self.params["limit"]
        return limit is not None and len(self.files) >= limit

    def walk(self, top):
        params = self.params
        if not os.path.isdir(top):
            raise OSError("'%s' is not a directory" % top)
        prefix_depth = (top.rstrip(os.sep) + os.sep).count(os.sep)

        def failed(error):
            # A directory below top that cannot be listed is skipped alone and the walk goes on, as in Ansible.
            if error.errno in (errno.EPERM, errno.EACCES, errno.ENOENT) and error.filename \
                    and os.path.normpath(error.filename) != os.path.normpath(top):
                self.skipped[error.filename] = str(error)
                return
            raise error

        for root, dirs, files in os.walk(top, onerror=failed, followlinks=params["follow"]):
            self.examined += len(files) + len(dirs)
            for name in files + dirs:
                path = os.path.normpath(os.path.join(root, name))
                if params["depth"] and path.count(os.sep) - prefix_depth + 1 > params["depth"]:
                    del dirs[:]  # nothing below this level is wanted
                    continue
                if name.startswith(".") and not params["hidden"]:
                    continue
                self.consider(name, path)
                if self.full():
                    return
            if not params["recurse"]:
                return

    def consider(self, name, path):
        try:
            info = os.lstat(path)
        except OSError as exc:
            self.module.warn("Skipped entry '%s' due to this access issue: %s" % (path, exc))
            self.skipped[path] = str(exc)
            return
        if not self.criteria.selects(name, path, info):
            return
        entry = describe(path, info)
        if stat.S_ISREG(info.st_mode) and self.params["get_checksum"]:
            entry["checksum"] = file_checksum(path, self.params["checksum_algorithm"])
        self.files.append(entry)


def run(module):
    try:
        search = Search(module)
    except re.error as exc:
        module.fail("invalid regular expression in patterns, excludes or contains: %s" % exc)
    for top in module.params["paths"]:
        top = os.path.expanduser(os.path.expandvars(top))
        try:
            search.walk(top)
        except (IOError, OSError) as exc:
            reason = exc.args[0] if len(exc.args) == 1 else str(exc)
            search.skipped[top] = str(reason)
            module.warn("Skipped '%s' path due to this access issue: %s" % (top, reason))
        if search.full():
            break
    # Only a search path that could not be searched at all is warned about (a subdirectory is just recorded),
    # and only it makes the message say so, as in Ansible.
    warned = any("Skipped '" in warning for warning in module.warnings)
    msg = "Not all paths examined, check warnings for details" if warned else "All paths examined"
    return {"changed": False, "files": search.files, "matched": len(search.files), "examined": search.examined,
            "skipped_paths": search.skipped, "msg": msg}
