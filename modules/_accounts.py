"""Local accounts (user, group): reading the account databases, and the before/after of what a run changes."""

import grp
import os
import pwd

SHADOW = "/etc/shadow"


class FieldChanges(object):
    """Fields of one account that differ from what was asked: the command options that fix them and the diff."""

    def __init__(self, name):
        self.options = []
        self.diff = {"before": {"name": name}, "after": {"name": name}}

    def add(self, key, before, after, options):
        self.diff["before"][key] = before
        self.diff["after"][key] = after
        self.options.extend(options)

    @property
    def changed(self):
        return len(self.diff["after"]) > 1


def user_entry(name):
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def group_entry(name_or_gid):
    """A group by name, or by number when the text is one; None when there is no such group."""
    try:
        if str(name_or_gid).isdigit():
            return grp.getgrgid(int(name_or_gid))
        return grp.getgrnam(str(name_or_gid))
    except KeyError:
        return None


def supplementary_groups(user, primary_gid):
    """Names of the groups that list ``user`` as a member, its primary group left out."""
    return sorted(group.gr_name for group in grp.getgrall() if user in group.gr_mem and group.gr_gid != primary_gid)


def shadow_fields(name, path=SHADOW):
    """The /etc/shadow fields of ``name`` (password hash first, account expiry eighth), or None."""
    try:
        with open(path) as handle:
            for line in handle:
                fields = line.rstrip("\n").split(":")
                if fields[0] == name:
                    return fields[1:] + [""] * (9 - len(fields))
    except OSError:
        return None
    return None


def run_account_command(module, argv, what, allowed=(0,)):
    """Run useradd/usermod/... ; a failure names the command and says what the tool said."""
    rc, out, err = module.run_command(argv, environ_update={"LANG": "C"})
    if rc not in allowed:
        module.fail("%s failed: %s" % (what, (err or out).strip()), rc=rc, cmd=argv, stdout=out, stderr=err)
    return rc, out, err


LOGIN_DEFS = "/etc/login.defs"


def home_mode(login_defs=LOGIN_DEFS):
    """The mode useradd gives a new home: HOME_MODE, else 0777 less UMASK, from login.defs (0755 without them)."""
    import re
    mode = 0o755
    try:
        with open(login_defs) as handle:
            for line in handle:
                match = re.match(r"^HOME_MODE\s+(\d+)$", line)
                if match:
                    return int(match.group(1), 8)
                match = re.match(r"^UMASK\s+(\d+)$", line)
                if match:
                    mode = 0o777 & ~int(match.group(1), 8)
    except OSError:
        pass
    return mode


def create_home(module, path, skeleton, uid, gid):
    """A missing home of an existing account, as Ansible's user module makes one: the skeleton's copy (or an empty
    directory), the login.defs mode, owned by the account throughout."""
    import shutil
    source = skeleton or "/etc/skel"
    try:
        if os.path.exists(source) and source != os.devnull:
            shutil.copytree(source, path, symlinks=True)
        else:
            os.makedirs(path)
        os.chmod(path, home_mode())
        for root, dirs, files in os.walk(path):
            for name in [root] + [os.path.join(root, entry) for entry in dirs + files]:
                if not os.path.islink(name):
                    os.chown(name, uid, gid)
    except OSError as exc:
        module.fail("could not create the home directory %s: %s" % (path, exc), path=path)
