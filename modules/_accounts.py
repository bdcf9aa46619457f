"""Local accounts (user, group): reading the account databases, and the before/after of what a run changes."""

import grp
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
