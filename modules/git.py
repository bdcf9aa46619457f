"""Deploy software (or files) from git checkouts: clone, fetch, check out a branch, tag or commit."""

import os
import re
import shlex

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Deploy software (or files) from git checkouts",
    "description": [
        "Clones repo into dest, or fetches and checks out version in an existing clone. before and after are "
        "the commit of HEAD before and after the run; changed is whether they differ (or the remote URL "
        "changed, or local modifications were discarded with force).",
        "Check mode asks the remote (git ls-remote) what version resolves to and changes nothing.",
        "Local modifications of tracked files fail the task unless force is set, which discards them.",
    ],
    "options": {
        "repo": {"description": "git, SSH, HTTP(S) or file URL, or a local path, of the repository.",
                 "type": "str", "required": True, "aliases": ["name"]},
        "dest": {"description": "Where the checkout goes.", "type": "path", "required": True},
        "version": {"description": "What to check out: HEAD (the remote's default branch), a branch, a tag or "
                                   "a commit (full or abbreviated SHA-1).", "type": "str", "default": "HEAD"},
        "remote": {"description": "Name of the remote.", "type": "str", "default": "origin"},
        "force": {"description": "Discard local modifications of tracked files.", "type": "bool",
                  "default": False},
        "depth": {"description": "Shallow clone (and fetch) with this many commits.", "type": "int"},
        "clone": {"description": "Clone when dest holds no repository.", "type": "bool", "default": True},
        "update": {"description": "Fetch and check out version in an existing clone.", "type": "bool",
                   "default": True},
        "bare": {"description": "A bare repository (no working tree).", "type": "bool", "default": False},
        "single_branch": {"description": "Clone only the history of version's branch.", "type": "bool",
                          "default": False},
        "refspec": {"description": "An additional refspec to fetch.", "type": "str"},
        "reference": {"description": "A repository to borrow objects from (clone --reference).", "type": "str"},
        "recursive": {"description": "Initialise and update submodules.", "type": "bool", "default": True},
        "accept_hostkey": {"description": "Accept an SSH host key not seen before (StrictHostKeyChecking=no).",
                           "type": "bool", "default": False},
        "accept_newhostkey": {"description": "Accept a new SSH host key, never a changed one.", "type": "bool",
                              "default": False},
        "key_file": {"description": "SSH private key to use.", "type": "path"},
        "ssh_opts": {"description": "Further ssh options.", "type": "str"},
        "executable": {"description": "The git program to use.", "type": "path"},
        "umask": {"description": "The umask (a quoted octal text, '0022') for everything the module creates.",
                  "type": "raw"},
        "track_submodules": {"description": "Submodules follow the latest commit of their branch "
                                            "(submodule update --remote).", "type": "bool", "default": False},
        "verify_commit": {"description": "Fail unless version's commit (or annotated tag) has a valid GPG "
                                         "signature (git verify-commit / verify-tag).", "type": "bool",
                          "default": False},
        "gpg_allowlist": {"description": "With verify_commit: the primary-key fingerprints a signature may come "
                                         "from (any valid one when empty).", "type": "list", "elements": "str",
                          "default": [], "aliases": ["gpg_whitelist"]},
        "archive": {"description": "Also write version as an archive file (its extension picks the format: "
                                   ".zip, .tar, .gz, .tgz); changed when its content differs.", "type": "path"},
        "archive_prefix": {"description": "A path prefix for every file in archive.", "type": "str"},
        "separate_git_dir": {"description": "Keep the repository's .git directory here (clone "
                                            "--separate-git-dir); dest/.git points to it.", "type": "path"},
    },
}

EXAMPLES = """
- name: The application at its release tag
  git:
    repo: https://git.example.com/app.git
    dest: /srv/app
    version: v1.4.2

- name: A mirror of a repository
  git:
    repo: git@git.example.com:team/app.git
    dest: /srv/mirror/app.git
    bare: true
    accept_newhostkey: true
"""

RETURN = {"before": "Commit of HEAD before the run (null when there was no clone)",
          "after": "Commit of HEAD after the run", "remote_url_changed": "Whether the remote's URL was changed",
          "warnings": "Things worth knowing, e.g. a version that could not be resolved"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"mutually_exclusive": [["accept_hostkey", "accept_newhostkey"]]}
SUPPORTS_CHECK_MODE = True

_SHA = re.compile(r"^[0-9a-fA-F]{7,40}$")


class Git(object):
    def __init__(self, module):
        self.module = module
        params = module.params
        self.params = params
        self.dest = params["dest"]
        self.remote = params["remote"]
        self.binary = params["executable"] or module.get_bin_path("git", required=True)
        self.env = {"LANG": "C", "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"}
        ssh = self.ssh_command()
        if ssh:
            self.env["GIT_SSH_COMMAND"] = ssh

    def ssh_command(self):
        params = self.params
        options = []
        if params["accept_hostkey"]:
            options += ["-o", "StrictHostKeyChecking=no"]
        if params["accept_newhostkey"]:
            options += ["-o", "StrictHostKeyChecking=accept-new"]
        if params["key_file"]:
            options += ["-i", params["key_file"], "-o", "IdentitiesOnly=yes"]
        if not options and not params["ssh_opts"]:
            return None
        return " ".join(["ssh"] + [shlex.quote(option) for option in options] +
                        ([params["ssh_opts"]] if params["ssh_opts"] else []))

    def run(self, args, cwd=None, check=True):
        rc, out, err = self.module.run_command([self.binary, *args], cwd=cwd or self.dest,
                                               environ_update=self.env)
        if check and rc != 0:
            self.module.fail("Failed to run git %s: %s" % (" ".join(args), (err or out).strip()), rc=rc,
                             stdout=out, stderr=err)
        return rc, out.strip(), err

    # -- the clone as it is -------------------------------------------------------------------------------
    def exists(self):
        marker = "HEAD" if self.params["bare"] else ".git"
        return os.path.exists(os.path.join(self.dest, marker))

    def head(self):
        rc, out, _ = self.run(["rev-parse", "HEAD"], check=False)
        return out if rc == 0 else None

    def remote_url(self):
        rc, out, _ = self.run(["config", "--get", "remote.%s.url" % self.remote], check=False)
        return out if rc == 0 else None

    def local_modifications(self):
        if self.params["bare"]:
            return False
        _, out, _ = self.run(["status", "--porcelain", "--untracked-files=no"])
        return bool(out)

    def commit_of(self, ref):
        rc, out, _ = self.run(["rev-parse", "--verify", "--quiet", "%s^{commit}" % ref], check=False)
        return out if rc == 0 else None

    # -- the remote ---------------------------------------------------------------------------------------
    def ls_remote(self):
        """The remote's refs -> commits (tags dereferenced), and the name of its default branch."""
        repo = self.params["repo"]
        _, out, _ = self.run(["ls-remote", "--symref", repo], cwd="/")
        refs, default_branch = {}, None
        for line in out.splitlines():
            left, _, ref = line.partition("\t")
            if left.startswith("ref: ") and ref == "HEAD":
                default_branch = left[len("ref: refs/heads/"):]
            elif ref.endswith("^{}"):
                refs[ref[:-3]] = left  # a tag's commit wins over the tag object
            elif ref not in refs:
                refs[ref] = left
        return refs, default_branch

    def classify(self, refs, default_branch):
        """(kind, name) of version: ('branch', b), ('tag', t) or ('sha', s)."""
        version = self.params["version"]
        if version == "HEAD":
            if default_branch is None:
                self.module.fail("the remote %s has no default branch (HEAD): give version" % self.params["repo"])
            return "branch", default_branch
        if "refs/heads/%s" % version in refs:
            return "branch", version
        if "refs/tags/%s" % version in refs:
            return "tag", version
        if _SHA.match(version):
            return "sha", version
        self.module.fail("Failed to find version %s in the remote %s: no such branch, tag or commit"
                         % (version, self.params["repo"]))

    def remote_commit(self, refs, kind, name):
        """What version will be, without fetching: the remote's commit, or a local object for a SHA."""
        if kind == "branch":
            return refs["refs/heads/%s" % name]
        if kind == "tag":
            return refs["refs/tags/%s" % name]
        return self.commit_of(name) if self.exists() else None

    # -- changing it --------------------------------------------------------------------------------------
    def clone(self, kind, name):
        params = self.params
        argv = ["clone"]
        if params["bare"]:
            argv.append("--bare")
        else:
            argv += ["--origin", self.remote]
        if params["depth"]:
            argv += ["--depth", str(params["depth"])]
        if kind in ("branch", "tag"):
            argv += ["--branch", name]
        if params["single_branch"]:
            argv.append("--single-branch")
        if params["reference"]:
            argv += ["--reference", params["reference"]]
        if params["separate_git_dir"] and not params["bare"]:
            argv += ["--separate-git-dir", params["separate_git_dir"]]
        parent = os.path.dirname(os.path.abspath(self.dest))
        if not os.path.isdir(parent):
            os.makedirs(parent)
        self.run([*argv, params["repo"], self.dest], cwd=parent)
        if kind == "sha":
            self.run(["checkout", "--force", name])
        if params["refspec"]:
            self.run(["fetch", self.remote, params["refspec"]])
        self.update_submodules()

    def fetch(self):
        params = self.params
        argv = ["fetch", "--tags", "--force"]
        if params["depth"]:
            argv += ["--depth", str(params["depth"])]
        argv.append(self.remote)
        if params["bare"]:
            argv += ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]
        else:
            argv.append("+refs/heads/*:refs/remotes/%s/*" % self.remote)
        if params["refspec"]:
            argv.append(params["refspec"])
        self.run(argv)

    def switch(self, kind, name):
        if kind == "branch":
            rc, _, _ = self.run(["show-ref", "--verify", "--quiet", "refs/heads/%s" % name], check=False)
            if rc == 0:
                self.run(["checkout", "--force", name])
            else:
                self.run(["checkout", "--track", "-b", name, "%s/%s" % (self.remote, name)])
            self.run(["reset", "--hard", "%s/%s" % (self.remote, name)])
        else:
            self.run(["checkout", "--force", name])
        self.update_submodules()

    def update_submodules(self):
        if self.params["recursive"] and not self.params["bare"] and \
                os.path.exists(os.path.join(self.dest, ".gitmodules")):
            self.run(["submodule", "update", "--init", "--recursive"] +
                     (["--remote"] if self.params["track_submodules"] else []))

    def verify_signature(self, version):
        """git verify-tag (an annotated tag) or verify-commit, and the signer against gpg_allowlist."""
        _, tags, _ = self.run(["for-each-ref", "--format=%(objecttype) %(refname:short)", "refs/tags"])
        annotated = "tag %s" % version in tags.splitlines()
        allowlist = self.params["gpg_allowlist"]
        argv = ["verify-tag" if annotated else "verify-commit", version] + (["--raw"] if allowlist else [])
        rc, out, err = self.run(argv, check=False)
        if rc != 0:
            self.module.fail('Failed to verify GPG signature of commit/tag "%s"' % version, stdout=out, stderr=err,
                             rc=rc)
        if allowlist:
            fingerprint = next((fields[11] if len(fields) == 11 else fields[2] for fields in
                                (line.split() for line in err.splitlines()) if fields[1:2] == ["VALIDSIG"]), None)
            if fingerprint not in allowlist:
                self.module.fail('The gpg_allowlist does not include the public key "%s" for this commit'
                                 % fingerprint, stdout=out, stderr=err, rc=rc)

    def write_archive(self, version):
        """archive as git archive writes version; True when the file is new or its content changed."""
        import filecmp
        import tempfile
        archive = self.params["archive"]
        formats = {".zip": "zip", ".gz": "tar.gz", ".tar": "tar", ".tgz": "tgz"}
        archive_format = formats.get(os.path.splitext(archive)[1])
        if archive_format is None:
            self.module.fail("Unable to get file extension from archive file name : %s" % archive,
                             details="Please specify archive as filename with extension. File extension can be "
                                     "one of ['tar', 'tar.gz', 'zip', 'tgz']")
        if self.module.check_mode:
            return not os.path.exists(archive)
        handle, fresh = tempfile.mkstemp(prefix=".git-archive.", suffix="." + archive_format,
                                         dir=os.path.dirname(os.path.abspath(archive)))
        os.close(handle)
        try:
            prefix = ["--prefix", self.params["archive_prefix"]] if self.params["archive_prefix"] is not None else []
            self.run(["archive", "--format", archive_format, "--output", fresh, *prefix, version])
            if os.path.exists(archive) and filecmp.cmp(fresh, archive, shallow=False):
                return False
            os.rename(fresh, archive)
            return True
        finally:
            if os.path.exists(fresh):
                os.unlink(fresh)

    def describe(self, before, after):
        """The diff's prepared text: what was checked out, and the files that changed."""
        if before is None:
            return ">> Newly checked out %s\n" % after
        _, stat, _ = self.run(["diff", "--stat", before, after], check=False)
        return ">> %s -> %s\n%s\n" % (before, after, stat)


def set_umask(module):
    """The umask option, applied before anything is created, as Ansible reads it: a quoted octal text."""
    umask = module.params["umask"]
    if umask is None:
        return
    if not isinstance(umask, str):
        module.fail("umask must be defined as a quoted octal integer")
    try:
        os.umask(int(umask, 8))
    except ValueError:
        module.fail("umask must be an octal integer")


def finish(module, git, result):
    """verify_commit and archive, once the checkout is where version says; the result as it ends."""
    params = module.params
    if params["verify_commit"] and not module.check_mode and git.exists():
        git.verify_signature(params["version"])
    if params["archive"] and (module.check_mode or git.exists()) and git.write_archive(params["version"]):
        result["changed"] = True
    return result


def run(module):
    set_umask(module)
    git = Git(module)
    params = module.params
    result = {"before": None, "after": None, "remote_url_changed": False, "changed": False}  # type: dict
    if not git.exists():
        refs, default_branch = git.ls_remote()
        kind, name = git.classify(refs, default_branch)
        remote_commit = git.remote_commit(refs, kind, name)
        if not params["clone"]:
            result["after"] = remote_commit
            return result
        if os.path.exists(params["dest"]) and os.listdir(params["dest"]):
            module.fail("Destination path '%s' already exists and is not an empty directory." % params["dest"])
        module.predict(params["dest"], "directory")
        result["changed"] = True
        if module.check_mode:
            result.update(after=remote_commit or name, diff={"prepared": ">> Would check out %s\n" % (remote_commit
                                                                                                      or name)})
            return result
        git.clone(kind, name)
        result["after"] = git.head()
        result["diff"] = {"prepared": git.describe(None, result["after"])}
        return finish(module, git, result)
    result["before"] = result["after"] = git.head()
    url_changed = git.remote_url() != params["repo"]
    if url_changed:
        result["remote_url_changed"] = True
        if not module.check_mode:
            git.run(["remote", "set-url", git.remote, params["repo"]])
    if not params["update"]:
        result["changed"] = url_changed
        return result
    local_mods = git.local_modifications()
    if local_mods:
        if not params["force"]:
            module.fail("Local modifications exist in the destination: %s (force=no)." % params["dest"], **result)
        if not module.check_mode:
            git.run(["reset", "--hard", "HEAD"])
    refs, default_branch = git.ls_remote()
    kind, name = git.classify(refs, default_branch)
    if module.check_mode:
        target = git.remote_commit(refs, kind, name)
        result["after"] = target or name
        result["changed"] = bool(url_changed or local_mods or target != result["before"])
    else:
        git.fetch()
        if not params["bare"]:
            if kind == "sha" and git.commit_of(name) is None:
                module.fail("Failed to find version %s in the repository %s" % (name, params["repo"]))
            git.switch(kind, name)
        result["after"] = git.head()
        result["changed"] = bool(url_changed or local_mods or result["after"] != result["before"])
    if result["changed"]:
        before, after = result["before"], result["after"]
        prepared = git.describe(before, after) if not module.check_mode and before != after else \
            ">> %s -> %s\n" % (before, after)
        result["diff"] = {"prepared": prepared}
    return finish(module, git, result)
