"""Create, change and remove local user accounts (useradd, usermod, userdel), and generate their SSH keys."""

import os
import re
import time

from modules._accounts import (
    FieldChanges,
    create_home,
    group_entry,
    run_account_command,
    shadow_fields,
    supplementary_groups,
    user_entry,
)
from modules._spec import argument_spec
from modules._utils import selinux_enabled

DOCUMENTATION = {
    "short_description": "Manage user accounts",
    "description": [
        "Manages local accounts with useradd, usermod and userdel. Every field asked for is compared with the "
        "account databases (passwd, group, shadow), so a second run changes nothing; the diff shows each field "
        "before and after (a password only as changed, never its hash).",
        "password is a crypt(3) hash, as usermod -p takes it.",
        "generate_ssh_key creates a key pair with ssh-keygen when the key file does not exist yet; an existing "
        "private or public key file is kept, with a warning, unless force replaces them (as in Ansible).",
    ],
    "options": {
        "name": {"description": "Name of the user.", "type": "str", "required": True, "aliases": ["user"]},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "uid": {"description": "The user's numeric id.", "type": "int"},
        "group": {"description": "Primary group (name or gid); it must exist.", "type": "str"},
        "groups": {"description": "Supplementary groups; an empty list with append false removes all.",
                   "type": "list", "elements": "str"},
        "append": {"description": "Add to groups instead of setting exactly them.", "type": "bool",
                   "default": False},
        "shell": {"description": "Login shell (a path: ~ and $VARS are expanded on the host, as Ansible's).",
                  "type": "path"},
        "home": {"description": "Home directory.", "type": "path"},
        "create_home": {"description": "Create the home directory when creating the user.", "type": "bool",
                        "default": True, "aliases": ["createhome"]},
        "move_home": {"description": "Move the old home's content when home changes.", "type": "bool",
                      "default": False},
        "skeleton": {"description": "Directory whose files a new home receives.", "type": "str"},
        "system": {"description": "Create a system account.", "type": "bool", "default": False},
        "comment": {"description": "The GECOS field (full name).", "type": "str"},
        "password": {"description": "The password as a crypt(3) hash.", "type": "str", "no_log": True},
        "update_password": {"description": "always (set when it differs) or on_create.", "type": "str",
                            "default": "always", "choices": ["always", "on_create"]},
        "expires": {"description": "When the account expires, seconds since the epoch (UTC day counts); a "
                                   "negative value removes the expiry.", "type": "float"},
        "non_unique": {"description": "Allow a uid that another user has.", "type": "bool", "default": False},
        "remove": {"description": "With state absent, remove the home directory and mail spool.",
                   "type": "bool", "default": False},
        "force": {"description": "With state absent, remove the user even while logged in.", "type": "bool",
                  "default": False},
        "generate_ssh_key": {"description": "Create an SSH key pair when the key file does not exist.",
                             "type": "bool", "default": False},
        "ssh_key_type": {"description": "Key type for ssh-keygen -t.", "type": "str", "default": "rsa"},
        "ssh_key_bits": {"description": "Key size for ssh-keygen -b.", "type": "int"},
        "ssh_key_file": {"description": "Key file, relative to the home directory unless absolute "
                                        "(default .ssh/id_TYPE).", "type": "path"},
        "ssh_key_comment": {"description": "Comment of the key.", "type": "str"},
        "ssh_key_passphrase": {"description": "Passphrase of the key.", "type": "str", "no_log": True},
        "local": {"description": "Accepted for compatibility: accounts are always managed with the shadow tools.",
                  "type": "bool", "default": False},
        "password_lock": {"description": "Lock (true, usermod -L) or unlock (false, -U) the password; with "
                                         "password, the hash is set locked ('!' before it).", "type": "bool"},
        "password_expire_max": {"description": "Maximum days between password changes (chage -M).",
                                "type": "int"},
        "password_expire_min": {"description": "Minimum days between password changes (chage -m).",
                                "type": "int"},
        "password_expire_warn": {"description": "Days of warning before the password expires (chage -W).",
                                 "type": "int"},
        "password_expire_account_disable": {"description": "Days after the password expires until the account "
                                                           "is disabled (the shadow inactive field).",
                                            "type": "int"},
        "umask": {"description": "UMASK for creating the home directory (useradd -K UMASK=...).", "type": "str"},
        "uid_min": {"description": "UID_MIN for creating the user, overriding /etc/login.defs.", "type": "int"},
        "uid_max": {"description": "UID_MAX for creating the user, overriding /etc/login.defs.", "type": "int"},
        "seuser": {"description": "SELinux user of the account (useradd -Z); ignored with a warning where SELinux "
                                  "is not enabled, as in ansible-core 2.21.", "type": "str"},
        "hidden": {"description": "macOS only; accepted and ignored on Linux, as Ansible does.", "type": "bool"},
        "login_class": {"description": "BSD login class; accepted and ignored on Linux, as Ansible does.",
                        "type": "str"},
        "profile": {"description": "Solaris/illumos execution profiles; accepted and ignored on Linux, as "
                                   "Ansible does.", "type": "str"},
        "authorization": {"description": "Solaris/illumos authorizations; accepted and ignored on Linux, as "
                                         "Ansible does.", "type": "str"},
        "role": {"description": "Solaris/illumos roles; accepted and ignored on Linux, as Ansible does.",
                 "type": "str"},
    },
}

EXAMPLES = """
- name: An account for the application, in the docker group too
  user:
    name: app
    uid: 1040
    group: app
    groups: [docker]
    append: true
    shell: /bin/bash
    generate_ssh_key: true
    ssh_key_type: ed25519

- name: Remove an old account and its home
  user:
    name: olduser
    state: absent
    remove: true
"""

RETURN = {"name": "The user", "uid": "Its numeric id", "group": "Its primary gid", "groups": "Supplementary "
          "groups, comma separated", "home": "Home directory", "shell": "Login shell", "comment": "GECOS field",
          "state": "present or absent", "ssh_key_file": "Path of the private key (generate_ssh_key)",
          "ssh_public_key": "The public key", "ssh_fingerprint": "The key's fingerprint"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
# ansible-core 2.21 fails append without groups (2.19 only warned): checked before any account is read.
SPEC_RULES = {"required_if": [["append", True, ["groups"]]]}
SUPPORTS_CHECK_MODE = True
# Shadow fields after the name (shadow_fields): the password expiry settings chage changes.
_EXPIRY_FIELDS = (("password_expire_min", "-m", 2), ("password_expire_max", "-M", 3), ("password_expire_warn", "-W", 4))
_INACTIVE_FIELD = 5

SECONDS_PER_DAY = 86400
HIDDEN = "NOT_LOGGING_PASSWORD"


class UserTask(object):
    def __init__(self, module):
        self.module = module
        self.params = module.params
        self.name = self.params["name"]
        self.changes = FieldChanges(self.name)

    def fail(self, msg):
        self.module.fail(msg, name=self.name)

    # -- what was asked, resolved -------------------------------------------------------------------------
    def wanted_gid(self):
        group = self.params["group"]
        if group is None:
            return None
        entry = group_entry(group)
        if entry is None:
            self.fail("Group %s does not exist" % group)
        return entry.gr_gid

    def wanted_groups(self):
        groups = self.params["groups"]
        if groups is None:
            return None
        names = []
        for group in groups:
            if not group:
                continue
            entry = group_entry(group)
            if entry is None:
                self.fail("Group %s does not exist" % group)
            names.append(entry.gr_name)
        return sorted(set(names))

    def wanted_expiry_days(self):
        """The shadow expiry field wanted: a day count, '' for never, None when not asked."""
        expires = self.params["expires"]
        if expires is None:
            return None
        return "" if expires < 0 else str(int(expires // SECONDS_PER_DAY))

    @staticmethod
    def expiry_option(days):
        if days == "":
            return ["-e", ""]
        return ["-e", time.strftime("%Y-%m-%d", time.gmtime(int(days) * SECONDS_PER_DAY))]

    # -- states -------------------------------------------------------------------------------------------
    def create(self):
        params = self.params
        argv = [self.module.get_bin_path("useradd", required=True)]
        record = self.changes.add
        record("state", "absent", "present", [])
        gid = self.wanted_gid()
        if gid is not None:
            argv += ["-g", str(gid)]
        elif group_entry(self.name) is not None:
            # useradd would fail creating the user's own group: it exists, so it becomes the primary group
            argv += ["-g", self.name]
        for key, option, value in (("uid", "-u", params["uid"]), ("shell", "-s", params["shell"]),
                                   ("home", "-d", params["home"]), ("comment", "-c", params["comment"])):
            if value is not None:
                argv += [option, str(value)]
                record(key, None, value, [])
        if params["non_unique"] and params["uid"] is not None:
            argv.append("-o")
        groups = self.wanted_groups()
        if groups:
            argv += ["-G", ",".join(groups)]
            record("groups", [], groups, [])
        if params["password"] is not None:
            argv += ["-p", ("!" if params["password_lock"] else "") + params["password"]]
            record("password", None, "(set)", [])
        if params["seuser"] is not None and selinux_enabled():
            argv += ["-Z", params["seuser"]]
        if params["password_expire_account_disable"] is not None:
            argv += ["-f", str(params["password_expire_account_disable"])]
        days = self.wanted_expiry_days()
        if days:
            argv += self.expiry_option(days)
        if params["system"]:
            argv.append("-r")
        if params["create_home"]:
            argv.append("-m")
            if params["skeleton"]:
                argv += ["-k", params["skeleton"]]
            if params["umask"] is not None:
                argv += ["-K", "UMASK=" + params["umask"]]
            self.module.predict(params["home"] or os.path.join("/home", self.name), "directory")
        else:
            argv.append("-M")
        for limit in ("uid_min", "uid_max"):
            if params[limit] is not None:
                argv += ["-K", "%s=%d" % (limit.upper(), params[limit])]
        argv.append(self.name)
        if not self.module.check_mode:
            run_account_command(self.module, argv, "useradd")

    def modify(self, entry):
        params = self.params
        record = self.changes.add
        if params["uid"] is not None and params["uid"] != entry.pw_uid:
            record("uid", entry.pw_uid, params["uid"], ["-u", str(params["uid"])] +
                   (["-o"] if params["non_unique"] else []))
        gid = self.wanted_gid()
        if gid is not None and gid != entry.pw_gid:
            record("group", entry.pw_gid, gid, ["-g", str(gid)])
        self.modify_groups(entry)
        for key, option, current in (("shell", "-s", entry.pw_shell), ("comment", "-c", entry.pw_gecos)):
            if params[key] is not None and params[key] != current:
                record(key, current, params[key], [option, params[key]])
        if params["home"] is not None and os.path.normpath(params["home"]) != os.path.normpath(entry.pw_dir):
            record("home", entry.pw_dir, params["home"], ["-d", params["home"]] + (["-m"] if params["move_home"]
                                                                                     else []))
        found = shadow_fields(self.name)
        shadow = found or [""] * 8
        # A lock's leading "!" is not part of the hash, on either side (as Ansible compares them).
        if params["password"] is not None and params["update_password"] == "always" \
                and params["password"].lstrip("!") != shadow[0].lstrip("!"):
            record("password", "(old)", "(new)", ["-p", params["password"]])
        days = self.wanted_expiry_days()
        # An account without a shadow entry gets one from usermod -e, as in Ansible (which sets it every run then).
        if days is not None and (days != shadow[6] or found is None):
            record("expires", shadow[6] or None, days or None, self.expiry_option(days))
        self.modify_lock(shadow)
        inactive = params["password_expire_account_disable"]
        if inactive is not None and str(inactive) != shadow[_INACTIVE_FIELD]:
            record("password_expire_account_disable", shadow[_INACTIVE_FIELD] or None, inactive,
                   ["-f", str(inactive)])
        if self.changes.options and not self.module.check_mode:
            argv = [self.module.get_bin_path("usermod", required=True), *self.changes.options, self.name]
            run_account_command(self.module, argv, "usermod")

    def modify_lock(self, shadow):
        """usermod -L/-U when password_lock asks for the other state; a new hash given with it is set locked."""
        lock = self.params["password_lock"]
        locked = shadow[0].startswith("!")
        if self.params["password"] is not None and "-p" in self.changes.options:
            if lock:
                index = self.changes.options.index("-p") + 1
                self.changes.options[index] = "!" + self.changes.options[index].lstrip("!")
            return
        if lock is not None and lock != locked:
            self.changes.add("password_lock", locked, lock, ["-L" if lock else "-U"])

    def set_password_expiry(self):
        """chage -m/-M/-W for the password expiry fields that differ from what was asked."""
        found = shadow_fields(self.name)
        shadow = found or [""] * 8
        options = []
        for key, option, index in _EXPIRY_FIELDS:
            wanted = self.params[key]
            if wanted is not None and str(wanted) != shadow[index]:
                self.changes.add(key, int(shadow[index]) if shadow[index].lstrip("-").isdigit() else None, wanted,
                                 [])
                options += [option, str(wanted)]
        if options and not self.module.check_mode:
            argv = [self.module.get_bin_path("chage", required=True), *options, self.name]
            run_account_command(self.module, argv, "chage")

    def modify_groups(self, entry):
        wanted = self.wanted_groups()
        if wanted is None:
            return
        current = supplementary_groups(self.name, entry.pw_gid)
        primary = group_entry(entry.pw_gid)
        wanted = [group for group in wanted if primary is None or group != primary.gr_name]
        if self.params["append"]:
            missing = [group for group in wanted if group not in current]
            if missing:
                self.changes.add("groups", current, sorted(set(current) | set(missing)),
                                 ["-a", "-G", ",".join(missing)])
        elif wanted != current:
            self.changes.add("groups", current, wanted, ["-G", ",".join(wanted)])

    def remove(self):
        argv = [self.module.get_bin_path("userdel", required=True)]
        if self.params["force"]:
            argv.append("-f")
        if self.params["remove"]:
            argv.append("-r")
            entry = user_entry(self.name)
            self.module.predict(entry.pw_dir, "absent")
        argv.append(self.name)
        self.changes.add("state", "present", "absent", [])
        if not self.module.check_mode:
            # 12: the home directory or mail spool to remove was not there; the account is gone all the same
            run_account_command(self.module, argv, "userdel", allowed=(0, 12))

    def ensure_home(self, entry):
        """An existing account whose home is missing gets one when create_home is true, as in Ansible."""
        if entry is None or not self.params["create_home"] or self.module.lexists(entry.pw_dir):
            return
        self.changes.add("home_created", False, True, [])
        self.module.predict(entry.pw_dir, "directory")
        if not self.module.check_mode:
            create_home(self.module, entry.pw_dir, self.params["skeleton"], entry.pw_uid, entry.pw_gid)

    # -- ssh key ------------------------------------------------------------------------------------------
    def key_path(self, home):
        key_file = self.params["ssh_key_file"] or os.path.join(".ssh", "id_%s" % self.params["ssh_key_type"])
        return key_file if os.path.isabs(key_file) else os.path.join(home, key_file)

    def ensure_ssh_key(self, entry, result):
        params = self.params
        home = entry.pw_dir if entry else (params["home"] or os.path.join("/home", self.name))
        path = self.key_path(home)
        result["ssh_key_file"] = path
        if self.key_pair_wanted(path):
            self.changes.add("ssh_key_file", None, path, [])
            self.module.predict(path, "file")
            if self.module.check_mode:
                return
            for existing in (path, path + ".pub"):  # force: what is there (a link too) is replaced
                if self.module.lexists(existing):
                    os.unlink(existing)
            self.generate_key(entry, path)
        if os.path.exists(path + ".pub"):
            with open(path + ".pub") as handle:
                result["ssh_public_key"] = handle.read().strip()
            _, out, _ = self.module.run_command(["ssh-keygen", "-l", "-f", path + ".pub"])
            result["ssh_fingerprint"] = out.strip()

    def key_pair_wanted(self, path):
        """Whether ssh-keygen runs: no key file yet, or force; an existing private or public key file is
        otherwise kept with Ansible's warning (each run, as Ansible warns)."""
        if self.params["force"]:
            return True
        for existing, kind in ((path, "private"), (path + ".pub", "public")):
            if os.path.exists(existing):
                self.module.warn('Found existing ssh key %s file "%s", no force, so skipping ssh-keygen generation'
                                 % (kind, existing))
                return False
        return not self.module.lexists(path)

    def generate_key(self, entry, path):
        params = self.params
        directory = os.path.dirname(path)
        if not os.path.isdir(directory):
            os.makedirs(directory, 0o700)
            os.chown(directory, entry.pw_uid, entry.pw_gid)
        argv = [self.module.get_bin_path("ssh-keygen", required=True), "-q", "-t", params["ssh_key_type"],
                "-f", path, "-N", params["ssh_key_passphrase"] or "",
                "-C", params["ssh_key_comment"] or "provisioning-generated on %s" % os.uname()[1]]
        if params["ssh_key_bits"]:
            argv += ["-b", str(params["ssh_key_bits"])]
        run_account_command(self.module, argv, "ssh-keygen")
        for created in (path, path + ".pub"):
            os.chown(created, entry.pw_uid, entry.pw_gid)

    # -- the run ------------------------------------------------------------------------------------------
    def run(self):
        params = self.params
        for limit in ("umask", "uid_min", "uid_max"):
            if params["local"] and params[limit] is not None:
                self.module.fail("'%s' can not be used with 'local'" % limit)
        entry = user_entry(self.name)
        result = {"name": self.name, "state": params["state"], "changed": False}
        if params["state"] == "absent":
            if entry is not None:
                self.remove()
                result.update(remove=params["remove"], force=params["force"])
        else:
            if entry is None:
                self.create()
            else:
                self.modify(entry)
            self.set_password_expiry()
            entry = user_entry(self.name)
            self.ensure_home(entry)
            if params["generate_ssh_key"]:
                self.ensure_ssh_key(entry, result)
            result.update(self.describe(entry))
        if self.changes.changed:
            result.update(changed=True, diff=self.changes.diff)
        return result

    def describe(self, entry):
        params = self.params
        if entry is None:  # created in a real run only
            return {"uid": params["uid"], "group": params["group"], "home": params["home"], "shell": params["shell"],
                    "comment": params["comment"], "system": params["system"], "create_home": params["create_home"]}
        described = {"uid": entry.pw_uid, "group": entry.pw_gid, "home": entry.pw_dir, "shell": entry.pw_shell,
                     "comment": entry.pw_gecos, "append": params["append"], "move_home": params["move_home"],
                     "groups": ",".join(supplementary_groups(self.name, entry.pw_gid))}
        if params["password"] is not None:
            described["password"] = HIDDEN
        return described


# The length of the hash part of each crypt(3) method's output: a password of the method's form but another
# length is not a hash the method made.
_HASH_LENGTHS = {"1": 22, "5": 43, "6": 86, "y": 43}
_NOT_IN_HASH = re.compile(r"[^a-zA-Z0-9./=]")
_ACCOUNT_DISABLING = ("*", "!", "*************")


def looks_unhashed(password):
    """Whether ``password`` does not look like crypt(3) output (Ansible's test, so the same warning shows)."""
    if not password or password in _ACCOUNT_DISABLING:
        return False
    if any(char in password for char in ":*!") or "$" not in password:
        return True
    fields = password.split("$")
    if len(fields) < 3:
        return True
    expected = _HASH_LENGTHS.get(fields[1])
    return bool(_NOT_IN_HASH.search(fields[-1])) or (expected is not None and len(fields[-1]) != expected)


def run(module):
    if looks_unhashed(module.params["password"]):
        module.warn("The input password appears not to have been hashed. The 'password' argument must be "
                    "encrypted for this module to work properly.")
    if module.params["seuser"] is not None and not selinux_enabled():
        # ansible-core 2.21's words (2.19 passed -Z to useradd, which fails without SELinux)
        module.warn("'seuser' is set to '%s' but SELinux is not enabled on this system. The 'seuser' parameter "
                    "will be ignored." % module.params["seuser"])
    return UserTask(module).run()
