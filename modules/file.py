"""Manage files, directories and links: their existence, mode, owner, group and timestamps."""

import os
import shutil
import time

from modules._fsattrs import FILESYSTEM_ATTRIBUTE_DOCS, FILESYSTEM_ATTRIBUTE_SPEC
from modules._utils import make_directories, path_info, path_state, resolve_gid, resolve_uid

DOCUMENTATION = {  # type: dict
    "short_description": "Manage files and file properties",
    "description": [
        "Sets attributes of files, directories and symlinks and their targets, creates directories and links, "
        "and removes any of them.",
        "Without state, an existing path keeps its kind (attributes are still fixed) and a missing one fails, "
        "as state: file does.",
        "state: touch reports changed every time: it sets the timestamps to now unless told to preserve them.",
    ],
    "options": {
        "path": {"description": "Path to the file being managed.", "type": "path", "required": True,
                 "aliases": ["dest", "name"]},
        "state": {"description": "file (exists; never created), directory (created with parents), link "
                                 "(symlink to src), hard (hard link to src), touch (created empty or its times "
                                 "updated), absent (removed, directories recursively).", "type": "str",
                  "choices": ["absent", "directory", "file", "hard", "link", "touch"]},
        "src": {"description": "What a link points to (state link or hard). A relative src of a symlink is "
                               "relative to the link's directory.", "type": "path"},
        "mode": {"description": "Permissions: octal (0644 or '0644') or symbolic ('u=rwX,g=rX,o=').",
                 "type": "raw"},
        "owner": {"description": "User that should own the path (name or uid).", "type": "str"},
        "group": {"description": "Group that should own the path (name or gid).", "type": "str"},
        "recurse": {"description": "With state directory, set mode/owner/group/times on everything inside too.",
                    "type": "bool", "default": False},
        "force": {"description": "Replace an existing file or empty directory with a link, or create a symlink "
                                 "to a source that does not exist.", "type": "bool", "default": False},
        "follow": {"description": "Attributes of a symlink apply to its target.", "type": "bool",
                   "default": True},
        "modification_time": {"description": "preserve, now, or a time in modification_time_format.",
                              "type": "str"},
        "modification_time_format": {"description": "strftime format of modification_time.", "type": "str",
                                     "default": "%Y%m%d%H%M.%S"},
        "access_time": {"description": "preserve, now, or a time in access_time_format.", "type": "str"},
        "access_time_format": {"description": "strftime format of access_time.", "type": "str",
                               "default": "%Y%m%d%H%M.%S"},
        "_diff_peek": {"description": "Internal to Ansible's action plugins: only report whether the file appears "
                                      "binary, and what is at path.", "type": "bool"},
        "_original_basename": {"description": "Internal to Ansible's action plugins; accepted and ignored.",
                               "type": "str"},
    },
}
DOCUMENTATION["options"].update(FILESYSTEM_ATTRIBUTE_DOCS)

EXAMPLES = """
- name: A directory for the application's data
  file:
    path: /srv/app/data
    state: directory
    owner: app
    group: app
    mode: "0750"

- name: Point current at the new release
  file:
    src: /srv/app/releases/42
    dest: /srv/app/current
    state: link

- name: Make a tree readable by its group, directories searchable
  file:
    path: /srv/app/shared
    state: directory
    recurse: true
    mode: "g+rX"

- name: Remove a stale lock
  file:
    path: /run/app.lock
    state: absent
"""

RETURN = {
    "path": "The path managed (state file, directory, absent)",
    "dest": "The path managed (state link, hard, touch)",
    "src": "What the link points to (state link, hard)",
    "state": "What the path is now: file, directory, link, hard or absent",
    "mode": "Permissions ('0644')",
    "owner": "Owner name",
    "group": "Group name",
    "uid": "Owner id",
    "gid": "Group id",
    "size": "Size in bytes",
    "diff": "before/after of path, state, mode, owner, group, src, mtime, atime as they changed",
}

ARGUMENT_SPEC = {
    "path": {"type": "path", "required": True, "aliases": ["dest", "name"]},
    "state": {"type": "str", "choices": ["absent", "directory", "file", "hard", "link", "touch"]},
    "src": {"type": "path"},
    "mode": {"type": "raw"},
    "owner": {"type": "str"},
    "group": {"type": "str"},
    "recurse": {"type": "bool", "default": False},
    "force": {"type": "bool", "default": False},
    "follow": {"type": "bool", "default": True},
    "modification_time": {"type": "str"},
    "modification_time_format": {"type": "str", "default": "%Y%m%d%H%M.%S"},
    "access_time": {"type": "str"},
    "access_time_format": {"type": "str", "default": "%Y%m%d%H%M.%S"},
    # Set by action plugins: _diff_peek asks what ActionBase._get_diff_data needs; _original_basename means nothing.
    "_diff_peek": {"type": "bool"},
    "_original_basename": {"type": "str"},
}
ARGUMENT_SPEC.update(FILESYSTEM_ATTRIBUTE_SPEC)
SUPPORTS_CHECK_MODE = True

NOW = "now"


class FileTask(object):
    """One run of the module: the parameters, and the attribute and timestamp handling every state shares."""

    def __init__(self, module):
        self.module = module
        params = module.params
        self.path = params["path"]
        self.src = params["src"]
        self.force = params["force"]
        self.follow = params["follow"]
        self.state = params["state"]
        self.prev_state = path_state(self.path, module)
        if self.state is None:
            # An existing path keeps its kind; a missing one is a file (which then fails), or a directory
            # when recursing.
            if self.prev_state != "absent":
                self.state = self.prev_state
            else:
                self.state = "directory" if params["recurse"] else "file"
        default_time = NOW if self.state == "touch" else "preserve"
        self.mtime = self._wanted_time("modification_time", default_time)
        self.atime = self._wanted_time("access_time", default_time)

    def fail(self, msg, **result):
        result.setdefault("path", self.path)
        self.module.fail(msg, **result)

    def _wanted_time(self, name, default):
        value = self.module.params[name] or default
        if value == "preserve":
            return None
        if value == NOW:
            return NOW
        fmt = self.module.params[name + "_format"]
        try:
            return time.mktime(time.strptime(value, fmt))
        except (ValueError, OverflowError) as exc:
            self.fail("Error while obtaining timestamp for time %s using format %s: %s" % (value, fmt, exc))

    def initial_diff(self, path=None):
        path = path or self.path
        diff = {"before": {"path": path}, "after": {"path": path}}
        if self.prev_state != self.state:
            diff["before"]["state"] = self.prev_state
            diff["after"]["state"] = self.state
            if self.state == "absent" and self.prev_state == "directory":
                content = {"directories": [], "files": []}  # type: dict[str, list]
                for root, dirnames, filenames in os.walk(path):
                    content["directories"].extend(os.path.join(root, name) for name in dirnames)
                    content["files"].extend(os.path.join(root, name) for name in filenames)
                diff["before"]["path_content"] = content
        return diff

    def set_attributes(self, path, diff, follow=True):
        """mode/owner/group and timestamps of ``path``; True when something changed (or would)."""
        params = self.module.params
        changed = self.module.set_file_attributes(path, params["mode"], params["owner"], params["group"], diff,
                                                  follow=follow, attributes=params["attributes"])
        return self.update_times(path, diff) or changed

    def update_times(self, path, diff):
        if self.mtime is None and self.atime is None:
            return False
        try:
            info = os.stat(path)
        except OSError:
            return self.module.check_mode  # created later in a real run, so its times would be set
        if self.mtime == NOW and self.atime == NOW:
            mtime = atime = time.time()
            new_times = None  # utime(path, None) needs write access only, not ownership
        else:
            mtime = info.st_mtime if self.mtime is None else (time.time() if self.mtime == NOW else self.mtime)
            atime = info.st_atime if self.atime is None else (time.time() if self.atime == NOW else self.atime)
            if mtime == info.st_mtime and atime == info.st_atime:
                return False
            new_times = (atime, mtime)
        if diff is not None:
            if mtime != info.st_mtime:
                diff["before"]["mtime"], diff["after"]["mtime"] = info.st_mtime, mtime
            if atime != info.st_atime:
                diff["before"]["atime"], diff["after"]["atime"] = info.st_atime, atime
        if not self.module.check_mode:
            try:
                os.utime(path, new_times)
            except OSError as exc:
                self.fail("Error while updating modification or access time: %s" % exc)
        return True

    def resolved_path(self):
        """The path attributes apply to: a symlink's target when following."""
        if self.follow and self.prev_state == "link":
            return os.path.realpath(self.path)
        return self.path

    # -- states ----------------------------------------------------------------------------------------------
    def ensure_absent(self):
        path = self.path
        if self.prev_state == "absent":
            return {"path": path, "changed": False, "state": "absent"}
        diff = self.initial_diff()
        self.module.predict(path, "absent")
        if not self.module.check_mode:
            try:
                if self.prev_state == "directory":
                    shutil.rmtree(path)
                else:
                    os.unlink(path)
            except OSError as exc:
                if os.path.lexists(path):
                    self.fail("%s failed: %s" % ("rmtree" if self.prev_state == "directory" else "unlinking", exc))
        return {"path": path, "changed": True, "diff": diff, "state": "absent"}

    def ensure_file(self):
        path = self.resolved_path()
        state = path_state(path, self.module)
        if state not in ("file", "hard"):
            # With the path's keys, as Ansible adds them to every result naming a path (state: absent here).
            self.fail("file (%s) is %s, cannot continue" % (path, state), path=path, **path_info(path))
        diff = self.initial_diff(path)
        return {"path": path, "changed": self.set_attributes(path, diff), "diff": diff}

    def ensure_directory(self):
        path = self.resolved_path()
        state = path_state(path, self.module)
        diff = self.initial_diff(path)
        params = self.module.params
        if state == "absent":
            changed = make_directories(self.module, path, params["mode"], params["owner"], params["group"], diff)
            if not self.module.check_mode:
                self.update_times(path, diff)
            return {"path": path, "changed": changed, "diff": diff}
        if state != "directory":
            self.fail("%s already exists as a %s" % (path, state), path=path)
        changed = self.set_attributes(path, diff)
        if params["recurse"]:
            changed = self.set_tree_attributes(path, set()) or changed
        return {"path": path, "changed": changed, "diff": diff}

    def set_tree_attributes(self, top, seen):
        """Everything under ``top``: links themselves, and with follow their targets (each target once)."""
        changed = False
        seen.add(os.path.realpath(top))
        for root, dirnames, filenames in os.walk(top):
            for name in dirnames + filenames:
                path = os.path.join(root, name)
                if not os.path.islink(path):
                    changed = self.set_attributes(path, None) or changed
                    continue
                changed = self.set_attributes(path, None, follow=False) or changed
                target = os.path.realpath(path)
                if not self.follow or not os.path.exists(target) or target in seen:
                    continue
                if os.path.isdir(target):
                    changed = self.set_tree_attributes(target, seen) or changed
                else:
                    seen.add(target)
                changed = self.set_attributes(target, None) or changed
        return changed

    def ensure_link(self):
        path, src, prev = self.path, self.src, self.prev_state
        if src is None:
            if prev != "link":
                self.fail("src is required for creating new symlinks")
            src = os.readlink(path)
        base = path if prev == "directory" else os.path.dirname(path)
        absolute_src = os.path.join(base, src)
        if not self.force and not os.path.exists(absolute_src):
            self.fail('src file does not exist, use "force=yes" if you really want to create the link: %s'
                      % absolute_src, src=src)
        if prev == "directory":
            if not self.force:
                self.fail("refusing to convert from directory to symlink for %s" % path)
            if os.listdir(path):
                self.fail("the directory %s is not empty, refusing to convert it" % path)
        elif prev in ("file", "hard") and not self.force:
            self.fail("refusing to convert from %s to symlink for %s" % (prev, path))
        diff = self.initial_diff()
        changed = prev != "link"
        if prev == "link" and os.readlink(path) != src:
            diff["before"]["src"], diff["after"]["src"] = os.readlink(path), src
            changed = True
        if changed and not self.module.check_mode:
            self._replace(path, lambda tmp: os.symlink(src, tmp), prev)
        return self._linked_result(path, src, changed, diff, follow=self.follow)

    def ensure_hard(self):
        path, src, prev = self.path, self.src, self.prev_state
        if src is None:
            if prev != "hard":
                self.fail("src is required for creating new hardlinks")
            # An existing hard link without src: only its attributes are brought to what was asked, as in Ansible.
            return self._linked_result(path, src, False, self.initial_diff(), follow=True)
        if not os.path.exists(src):
            self.fail("src does not exist", dest=path, src=src)
        diff = self.initial_diff()
        if prev == "absent":
            changed = True
        elif prev == "link":
            changed = True
            diff["before"]["src"], diff["after"]["src"] = os.readlink(path), src
        elif prev in ("file", "hard"):
            changed = os.stat(path).st_ino != os.stat(src).st_ino
            if changed and not self.force:
                self.fail("Cannot link, %s exists at destination" % (
                    "different hard link" if prev == "hard" else prev), dest=path, src=src)
        else:
            self.fail("Cannot link, %s exists at destination" % prev, dest=path, src=src)
        if changed and not self.module.check_mode:
            self._replace(path, lambda tmp: os.link(src, tmp), prev)
        return self._linked_result(path, src, changed, diff, follow=True)

    def _replace(self, path, make, prev):
        """Create the new link under a temp name, then rename it over ``path``: never a moment without it."""
        tmp = os.path.join(os.path.dirname(path) or ".", ".%s.%d.%f.tmp" % (os.path.basename(path), os.getpid(),
                                                                           time.time()))
        try:
            if prev == "directory":
                os.rmdir(path)
            make(tmp)
            os.rename(tmp, path)
        except OSError as exc:
            if os.path.lexists(tmp):
                os.unlink(tmp)
            self.fail("Error while linking: %s" % exc, dest=path)

    def _linked_result(self, path, src, changed, diff, follow):
        result = {"dest": path, "src": src, "diff": diff}
        if self.module.check_mode and not os.path.lexists(path):
            result["changed"] = changed
            return result
        params = self.module.params
        wants_attributes = any(params[name] is not None for name in ("mode", "owner", "group"))
        if follow and os.path.islink(path) and not os.path.exists(path):
            if wants_attributes:
                self.module.warn("Cannot set fs attributes on a non-existent symlink target. follow should be "
                                 "set to False to avoid this.")
        else:
            changed = self.set_attributes(path, diff, follow=follow) or changed
        result["changed"] = changed
        return result

    def touch(self):
        path = self.path
        diff = self.initial_diff()
        if self.prev_state == "absent":
            if self.module.check_mode:
                self.module.predict(path, "file")
                return {"dest": path, "changed": True, "diff": diff}
            try:
                open(path, "ab").close()
            except (OSError, IOError) as exc:
                self.fail("Error, could not touch target: %s" % exc)
            try:
                self.set_attributes(path, diff, follow=self.follow)
            except BaseException:
                os.remove(path)  # we just created it: leave nothing half-made behind
                raise
            return {"dest": path, "changed": True, "diff": diff}
        changed = self.set_attributes(self.resolved_path(), diff)
        return {"dest": path, "changed": changed, "diff": diff}


def diff_peek(path):
    """What ActionBase._get_diff_data asks before a diff (Ansible's answer): whether the file's first 8 KiB hold a
    NUL byte, with what is at ``path``; nothing is changed."""
    try:
        with open(path, "rb") as handle:
            appears_binary = b"\x00" in handle.read(8192)
    except OSError:
        appears_binary = False
    return {"path": path, "changed": False, "appears_binary": appears_binary, **path_info(path)}


def run(module):
    params = module.params
    if params["_diff_peek"] is not None:
        return diff_peek(params["path"])
    task = FileTask(module)
    if params["recurse"] and task.state != "directory":
        task.fail("recurse option requires state to be 'directory'")
    if params["src"] is not None and task.state not in ("link", "hard"):
        task.fail("src option requires state to be 'link' or 'hard'")
    if task.state != "absent" and not module.check_mode:
        # Fail before creating anything when the owner or group does not exist (check mode warns instead:
        # an earlier task may be about to create them).
        if params["owner"] is not None:
            resolve_uid(params["owner"], module)
        if params["group"] is not None:
            resolve_gid(params["group"], module)
    elif module.check_mode:
        # Warned first, as Ansible does, so the warning is there even when the task then fails.
        for kind in ("owner", "group"):
            if params[kind] is not None and not module.id_exists(kind, params[kind]):
                module.warn_missing_id(kind, params[kind])
    handler = {"absent": task.ensure_absent, "file": task.ensure_file, "directory": task.ensure_directory,
               "link": task.ensure_link, "hard": task.ensure_hard, "touch": task.touch}[task.state]
    result = handler()
    named = result.get("path") or result.get("dest")
    if task.state != "absent" and (not module.check_mode or os.path.lexists(named)):
        result.update(path_info(named))
    if not module.diff_mode:
        result.pop("diff", None)  # Ansible's file module returns its diff only in diff mode (other modules always)
    return result
