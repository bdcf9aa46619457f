"""Check out, update, switch or export a Subversion working copy with svn."""

import os
import re

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Deploys a subversion repository",
    "description": [
        "Checks out repo at revision into dest, or updates (and with switch, switches) the working copy there; "
        "export writes a clean tree instead. Local modifications fail the task unless force reverts them.",
        "Check mode asks svn info what the update would bring and changes nothing.",
        "svn must be installed on the host (Debian: the subversion package); without it the task fails with "
        "ansible-core's message. A password is passed on standard input (--password-from-stdin, svn 1.10+).",
    ],
    "options": {
        "repo": {"description": "The repository URL.", "type": "str", "required": True,
                 "aliases": ["name", "repository"]},
        "dest": {"description": "The working copy (or export) directory; needed unless checkout, update and "
                                "export are all false.", "type": "path"},
        "revision": {"description": "The revision (a number or HEAD).", "type": "str", "default": "HEAD",
                     "aliases": ["rev", "version"]},
        "force": {"description": "Revert local modifications (and export over existing files).", "type": "bool",
                  "default": False},
        "in_place": {"description": "Check out over an existing directory that is not a working copy.",
                     "type": "bool", "default": False},
        "username": {"description": "User name for the repository.", "type": "str"},
        "password": {"description": "Password for the repository.", "type": "str", "no_log": True},
        "executable": {"description": "The svn to use.", "type": "path"},
        "checkout": {"description": "Check out when dest does not exist.", "type": "bool", "default": True},
        "update": {"description": "Update an existing working copy.", "type": "bool", "default": True},
        "export": {"description": "Export instead of checking out.", "type": "bool", "default": False},
        "switch": {"description": "Switch an existing working copy to repo.", "type": "bool", "default": True},
        "validate_certs": {"description": "Verify the server's TLS certificate (false: --trust-server-cert).",
                           "type": "bool", "default": False},
    },
}

EXAMPLES = """
- name: Check out the ansible repository
  subversion:
    repo: svn+ssh://an.example.org/path/to/repo
    dest: /src/checkout
"""

RETURN = {"before": "Revision and URL before (svn info's lines)", "after": "Revision and URL after"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

REVISION = re.compile(r"^\w+\s?:\s+\d+$", re.M)
CHANGED_LINE = re.compile(r"^[ABDUCGE]\s")
MODIFIED = "ERROR: modified files exist in the repository."


class Svn(object):
    def __init__(self, module, svn):
        self.module = module
        self.svn = svn
        self.params = module.params

    def run(self, args, check_rc=True):
        params = self.params
        argv = [self.svn, "--non-interactive", "--no-auth-cache"]
        if not params["validate_certs"]:
            argv.append("--trust-server-cert")
        if params["username"]:
            argv += ["--username", params["username"]]
        if params["password"]:
            argv.append("--password-from-stdin")
        rc, out, err = self.module.run_command(argv + args, data=params["password"] if params["password"] else None,
                                               environ_update={"LANG": "C", "LC_MESSAGES": "C"})
        if check_rc and rc != 0:
            self.module.fail(err.strip() or out.strip() or "svn %s failed" % args[0], rc=rc, stdout=out, stderr=err)
        return rc, out.splitlines()

    def changes(self, args):
        return any(CHANGED_LINE.search(line) for line in self.run(args)[1])

    def is_working_copy(self, dest):
        return self.run(["info", dest], check_rc=False)[0] == 0

    def revision(self, target, extra=()):
        text = "\n".join(self.run(["info", *extra, target])[1])
        found = REVISION.search(text)
        url = re.search(r"^URL\s?:.*$", text, re.M)
        return (found.group(0) if found else "Unable to get revision"), (url.group(0) if url else "Unable to get URL")

    def local_mods(self, dest):
        lines = self.run(["status", "--quiet", "--ignore-externals", dest])[1]
        return any(re.match(r"^[^?X]", line) for line in lines)


def number(revision_line):
    return int(revision_line.split(":")[1].strip())


def run(module):
    params = module.params
    dest, repo, revision = params["dest"], params["repo"], params["revision"]
    svn = Svn(module, params["executable"] or module.get_bin_path("svn", required=True))
    if not dest and (params["checkout"] or params["update"] or params["export"]):
        module.fail("the destination directory must be specified unless checkout=no, update=no, and export=no")
    if not (params["export"] or params["update"] or params["checkout"]):
        return {"changed": False, "after": svn.revision(repo)[0]}
    force = ["--force"] if params["force"] else []
    if params["export"] or not os.path.exists(dest):
        if module.check_mode:
            return {"changed": True}
        if not params["export"] and not params["checkout"]:
            return {"changed": False}
        if params["export"]:
            svn.run(["export", *force, "-r", revision, repo, dest])
            return {"changed": True}
        svn.run(["checkout", "-r", revision, repo, dest])
        return {"changed": True, "before": None, "after": svn.revision(dest)}
    if svn.is_working_copy(dest):
        if not params["update"]:
            return {"changed": False}
        local_mods = svn.local_mods(dest)
        if module.check_mode:
            if local_mods and not params["force"]:
                module.fail(MODIFIED)
            current = svn.revision(dest)[0]
            target = svn.revision(dest, ["-r", revision])[0]
            return {"changed": number(current) < number(target), "before": current, "after": target}
        before = svn.revision(dest)
        changed = params["switch"] and svn.changes(["switch", "--revision", revision, repo, dest])
        if local_mods:
            if not params["force"]:
                module.fail(MODIFIED)
            svn.run(["revert", "-R", dest])
        changed = svn.changes(["update", "-r", revision, dest]) or changed
        return {"changed": bool(changed or local_mods), "before": before, "after": svn.revision(dest)}
    if params["in_place"]:
        svn.run(["checkout", "--force", "-r", revision, repo, dest])
        if params["force"] and svn.local_mods(dest):
            svn.run(["revert", "-R", dest])
        return {"changed": True, "before": None, "after": svn.revision(dest)}
    module.fail("ERROR: %s folder already exists, but its not a subversion repository." % dest)
