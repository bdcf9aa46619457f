"""Manage cron jobs and crontab environment variables, in a user's crontab or in a file under /etc/cron.d."""

import os
import pwd
import re
import tempfile

from modules._crontab import (
    MARKER,
    SPECIAL_TIMES,
    find_env,
    job_line,
    parse,
    remove_env,
    remove_job,
    render,
    set_env,
    set_job,
)
from modules._spec import argument_spec
from modules._textfile import ContentChange, content_diff
from modules._utils import error_text, remove_quietly

DOCUMENTATION = {
    "short_description": "Manage cron.d and crontab entries",
    "description": [
        "Adds, changes and removes named jobs (a '#Ansible: NAME' line above each job line, as Ansible writes "
        "them, so existing crontabs are read the same way) and environment variables.",
        "A user's crontab is read with crontab -l and installed with crontab -; with cron_file the job goes to "
        "that file (in /etc/cron.d unless the path is absolute), written atomically, with the user on each line.",
        "The diff shows the crontab before and after.",
    ],
    "options": {
        "name": {"description": "Name of the job (its marker), or of the variable with env. Required, except "
                                "to remove a whole cron_file (state absent, no name).", "type": "str"},
        "job": {"description": "The command, or the variable's value with env. Required with state present.",
                "type": "str", "aliases": ["value"]},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "user": {"description": "Whose crontab (default: the user the task runs as; root in a cron_file).",
                 "type": "str"},
        "cron_file": {"description": "A file in /etc/cron.d (or an absolute path) instead of a user's crontab. "
                                     "With state absent and no name, the file is removed. /etc/crontab is "
                                     "refused (the system crontab is not managed this way).", "type": "path"},
        "minute": {"description": "Minute (0-59, *, */2, ...).", "type": "str", "default": "*"},
        "hour": {"description": "Hour (0-23, *, ...).", "type": "str", "default": "*"},
        "day": {"description": "Day of the month (1-31, *, ...).", "type": "str", "default": "*",
                "aliases": ["dom"]},
        "month": {"description": "Month (1-12, *, ...).", "type": "str", "default": "*"},
        "weekday": {"description": "Day of the week (0-6 for Sunday-Saturday, *, ...).", "type": "str",
                    "default": "*", "aliases": ["dow"]},
        "special_time": {"description": "A special schedule instead of the five fields.", "type": "str",
                         "choices": list(SPECIAL_TIMES)},
        "disabled": {"description": "Keep the job, commented out.", "type": "bool", "default": False},
        "env": {"description": "Manage an environment variable (name=job) instead of a job.", "type": "bool",
                "default": False},
        "insertafter": {"description": "With env: put a new variable after this variable.", "type": "str"},
        "insertbefore": {"description": "With env: put a new variable before this variable.", "type": "str"},
        "backup": {"description": "Keep a copy of the crontab before changing it.", "type": "bool",
                   "default": False},
    },
}

EXAMPLES = """
- name: Rotate the application's logs every night
  cron:
    name: rotate app logs
    minute: "0"
    hour: "3"
    job: /usr/local/bin/rotate-app-logs

- name: A job in /etc/cron.d/app, run as the app user
  cron:
    name: app cleanup
    special_time: hourly
    user: app
    job: /srv/app/bin/cleanup
    cron_file: app

- name: Variables for every job below
  cron:
    name: MAILTO
    env: true
    job: ops@example.com
"""

RETURN = {"jobs": "Names of the jobs in the crontab after the run", "envs": "Names of its variables",
          "backup_file": "The copy made with backup"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"mutually_exclusive": [["insertafter", "insertbefore"], ["special_time", "minute"]]}
SUPPORTS_CHECK_MODE = True

CRON_D = "/etc/cron.d"
# The system crontab has a format of its own (a user field, no markers of ours); ansible-core refuses it by name.
SYSTEM_CRONTAB = "/etc/crontab"
# What cron (run-parts' rules) reads of /etc/cron.d: other file names are skipped, on Debian at least.
CRON_D_NAME = re.compile(r"^[A-Z0-9_-]+$", re.I)


def cron_file_path(cron_file):
    return cron_file if os.path.isabs(cron_file) else os.path.join(CRON_D, cron_file)


class UserCrontab(object):
    """A user's crontab, read and installed through the crontab command."""

    def __init__(self, module, user):
        self.module = module
        self.command = [module.get_bin_path("crontab", required=True)]
        own = pwd.getpwuid(os.getuid()).pw_name
        if user and user != own:
            self.command += ["-u", user]
        self.user = user or own
        self.label = "crontab for %s" % self.user

    def read(self):
        rc, out, err = self.module.run_command([*self.command, "-l"], environ_update={"LANG": "C"})
        if rc != 0:
            if "no crontab" in (err + out):
                return ""
            self.module.fail("reading the crontab of %s failed: %s" % (self.user, err.strip()), rc=rc)
        return out

    def write(self, text, backup):
        result = {}
        backup_file = self._backup() if backup else ""
        rc, out, err = self.module.run_command([*self.command, "-"], data=text, binary_data=True,
                                               environ_update={"LANG": "C"})
        if rc != 0:
            remove_quietly(backup_file)  # the crontab is as it was
            self.module.fail("installing the crontab of %s failed: %s" % (self.user, (err or out).strip()), rc=rc)
        if backup_file:
            result["backup_file"] = backup_file
        return result

    def _backup(self):
        """The current crontab saved whole (0600) or not at all: beside the system's temp files, not in the agent's
        work directory, which goes with the agent."""
        try:
            fd, path = tempfile.mkstemp(prefix="crontab.%s." % self.user, suffix=".backup")
        except OSError as exc:
            self.module.fail("Could not create a backup file of the crontab of %s in %s: %s"
                             % (self.user, tempfile.gettempdir(), error_text(exc)))
        os.close(fd)
        try:
            self.module.atomic_write(path, self.read().encode("utf-8"),
                                     what="the backup %s of the crontab of %s" % (path, self.user))
        except BaseException:
            remove_quietly(path)
            raise
        return path


def edited(lines, params, in_file):
    """The crontab's lines after this task."""
    name = params["name"]
    if params["env"]:
        if params["state"] == "absent":
            return remove_env(lines, name)
        return set_env(lines, name, params["job"], params["insertafter"], params["insertbefore"])
    if params["state"] == "absent":
        return remove_job(lines, name)
    line = job_line(params["job"], params["minute"], params["hour"], params["day"], params["month"],
                            params["weekday"], params["special_time"],
                            (params["user"] or "root") if in_file else None, params["disabled"])
    return set_job(lines, name, line)


def removed_last_job(params, lines, new_lines):
    """Whether this task removed a job and left only blank lines: Ansible then removes the cron_file."""
    return (params["state"] == "absent" and not params["env"] and new_lines != lines
            and not any(line.strip() for line in new_lines))


def summary(lines):
    jobs = [line[len(MARKER):] for line in lines if line.startswith(MARKER)]
    envs = [line.split("=", 1)[0] for line in lines if "=" in line and not line.startswith("#")
            and find_env([line], line.split("=", 1)[0].strip()) is not None]
    return {"jobs": jobs, "envs": envs}


def check_cron_file(module, cron_file):
    """ansible-core's checks of cron_file, made before anything else: the system crontab is refused, and a
    file name cron may skip is warned about."""
    if cron_file == SYSTEM_CRONTAB:
        module.fail("Will not manage /etc/crontab via cron_file, see documentation.")
    basename = os.path.basename(cron_file)
    if not CRON_D_NAME.search(basename):
        module.warn('Filename portion of cron_file ("%s") should consist solely of upper- and lower-case '
                    "letters, digits, underscores, and hyphens" % basename)


def run(module):
    params = module.params
    if params["cron_file"]:
        check_cron_file(module, params["cron_file"])
    if params["name"] is None and not (params["cron_file"] and params["state"] == "absent"):
        module.fail("missing required arguments: name")
    if params["state"] == "present" and params["job"] is None:
        module.fail("missing required arguments: job (needed with state present)")
    if params["cron_file"]:
        return run_in_file(module, cron_file_path(params["cron_file"]))
    tab = UserCrontab(module, params["user"])
    before = tab.read()
    lines = parse(before)
    after = render(edited(lines, params, in_file=False))
    result = dict(summary(parse(after)), changed=after != render(lines))
    if result["changed"]:
        result["diff"] = {"before": render(lines), "after": after, "before_header": tab.label,
                          "after_header": tab.label}
        if not module.check_mode:
            result.update(tab.write(after, params["backup"]))
    return result


def run_in_file(module, path):
    params = module.params
    original = None
    if module.lexists(path) and os.path.exists(path):
        with open(path, "rb") as handle:
            original = handle.read()
    if params["name"] is None:
        # state absent without a name: the whole file goes
        if original is None:
            return {"changed": False, "jobs": [], "envs": []}
        module.predict(path, "absent")
        if not module.check_mode:
            os.unlink(path)
        return {"changed": True, "jobs": [], "envs": [],
                "diff": content_diff(path, original, b"")}
    lines = parse((original or b"").decode("utf-8", "replace"))
    new_lines = edited(lines, params, in_file=True)
    if original is not None and removed_last_job(params, lines, new_lines):
        # a file that held nothing but this job (blank lines aside) goes with it, as in Ansible
        module.predict(path, "absent")
        if not module.check_mode:
            os.unlink(path)
        return {"changed": True, "jobs": [], "envs": [], "diff": content_diff(path, original, b"")}
    new = render(new_lines).encode("utf-8")
    if original is None and params["state"] == "absent":
        new = None
    change = ContentChange(module, path, original, new)
    changed = change.write(params["backup"]) if new is not None else False
    result = dict(summary(new_lines), changed=changed)
    if changed:
        result["diff"] = content_diff(path, original, new)
    if change.backup_file:
        result["backup_file"] = change.backup_file
    return result
