"""Debian packages through apt-get: what the apt module does, shared with the package module.

Every package operation is first simulated (``apt-get -s``): the simulation says exactly which packages a real
run would install, upgrade or remove, so check mode, ``changed`` and the diff all come from one place.
"""

import fnmatch
import os
import re
import time

from modules._spec import argument_spec
from modules._utils import remove_quietly, validate_arguments

# The apt module's documented options: its argument spec is derived from them, and package reuses both.
OPTIONS = {
    "name": {"description": "Package names, each optionally with a version: foo, foo=1.0, foo=1.0*.",
             "type": "list", "elements": "str", "aliases": ["package", "pkg"]},
    "state": {"description": "present (installed), latest (installed at the candidate version), absent, "
                             "build-dep (build dependencies installed), fixed (broken dependencies fixed).",
              "type": "str", "default": "present",
              "choices": ["absent", "build-dep", "latest", "present", "fixed", "installed", "removed"]},
    "update_cache": {"description": "Run apt-get update first (unless cache_valid_time says it is fresh).",
                     "type": "bool", "aliases": ["update-cache"]},
    "cache_valid_time": {"description": "Seconds the package lists stay fresh; implies update_cache.",
                         "type": "int", "default": 0},
    "update_cache_retries": {"description": "How often to try apt-get update.", "type": "int", "default": 5},
    "update_cache_retry_max_delay": {"description": "Longest pause between two tries, in seconds.",
                                     "type": "int", "default": 12},
    "deb": {"description": "Path of a .deb file on the host to install (with its dependencies).",
            "type": "path"},
    "purge": {"description": "With state absent, remove configuration files too.", "type": "bool",
              "default": False},
    "autoremove": {"description": "Remove dependencies no longer needed.", "type": "bool", "default": False},
    "autoclean": {"description": "Remove package files that can no longer be downloaded.", "type": "bool",
                  "default": False},
    "upgrade": {"description": "yes/safe (apt-get upgrade --with-new-pkgs), full/dist (dist-upgrade), no.",
                # raw: YAML reads ``upgrade: yes`` as a boolean, which upgrade_mode turns back into its word
                "type": "raw"},
    "install_recommends": {"description": "Install recommended packages too (default: apt's setting).",
                           "type": "bool", "aliases": ["install-recommends"]},
    "default_release": {"description": "apt-get -t: the release to take packages from.", "type": "str",
                        "aliases": ["default-release"]},
    "dpkg_options": {"description": "dpkg options, comma separated, each passed as --option.", "type": "str",
                     "default": "force-confdef,force-confold"},
    "force": {"description": "Allow unauthenticated packages, downgrades, held packages and removal of "
                             "essential ones.", "type": "bool", "default": False},
    "allow_unauthenticated": {"description": "Allow unauthenticated packages.", "type": "bool",
                              "default": False, "aliases": ["allow-unauthenticated"]},
    "allow_downgrade": {"description": "Allow installing an older version.", "type": "bool", "default": False,
                        "aliases": ["allow-downgrade", "allow_downgrades", "allow-downgrades"]},
    "allow_change_held_packages": {"description": "Allow changing held packages.", "type": "bool",
                                   "default": False},
    "only_upgrade": {"description": "Only upgrade packages that are installed.", "type": "bool",
                     "default": False},
    "fail_on_autoremove": {"description": "Fail instead of removing packages an install would remove.",
                           "type": "bool", "default": False},
    "force_apt_get": {"description": "Accepted for compatibility: apt-get is always used.", "type": "bool",
                      "default": False},
    "lock_timeout": {"description": "Seconds to wait for the dpkg lock.", "type": "int", "default": 60},
    "clean": {"description": "Run apt-get clean first (the downloaded package files go); alone, the task "
                             "reports changed, as Ansible's does. Not in check mode.", "type": "bool",
              "default": False},
    "policy_rc_d": {"description": "While packages are installed or removed, /usr/sbin/policy-rc.d exits with "
                                   "this code (101: no service starts); an existing one is put back after.",
                    "type": "int"},
    "auto_install_module_deps": {"description": "Accepted for compatibility: this module needs no Python apt "
                                                "bindings, so there is nothing to install.", "type": "bool",
                                 "default": True},
}
ARGUMENT_SPEC = argument_spec(OPTIONS)
SPEC_RULES = {"mutually_exclusive": [["deb", "name"]],
              "required_one_of": [["name", "update_cache", "deb", "autoremove", "autoclean", "upgrade", "clean"]]}
POLICY_RC_D = "/usr/sbin/policy-rc.d"

# apt-get speaks English to the parser, never asks, and never waits for a pager or a config prompt.
APT_ENV = {"DEBIAN_FRONTEND": "noninteractive", "DEBIAN_PRIORITY": "critical", "LANG": "C", "LC_ALL": "C",
           "APT_LISTCHANGES_FRONTEND": "none", "NEEDRESTART_MODE": "l"}
LISTS_DIR = "/var/lib/apt/lists"
UPDATE_STAMP = "/var/lib/apt/periodic/update-success-stamp"
# A simulation line: "Inst hello [2.10-2] (2.10-3 Debian:12/stable [amd64])", "Remv sl [5.02-1]", "Purg ...".
_SIMULATED = re.compile(r"^(Inst|Remv|Purg) (\S+)(?: \[([^\]]+)\])?(?: \((\S+))?", re.M)
_STATE_ALIASES = {"installed": "present", "removed": "absent"}
_UPGRADE_COMMANDS = {"yes": ["upgrade", "--with-new-pkgs"], "safe": ["upgrade", "--with-new-pkgs"],
                     "full": ["dist-upgrade"], "dist": ["dist-upgrade"]}


UPGRADE_CHOICES = ("dist", "full", "no", "safe", "yes")


def upgrade_mode(value, module):
    """upgrade as one of its words: true/false as yes/no, None as no."""
    if value is None or value is False:
        return "no"
    if value is True:
        return "yes"
    if str(value) not in UPGRADE_CHOICES:
        module.fail("value of upgrade must be one of: %s, got: %s" % (", ".join(UPGRADE_CHOICES), value))
    return str(value)


def apt_params(params):
    """The apt module's full parameter set for ``params`` (defaults filled): how package calls apt."""
    return validate_arguments(ARGUMENT_SPEC, params, SPEC_RULES)


# -- package names and versions ------------------------------------------------------------------------------
def split_spec(spec):
    """``name=1.2*`` -> ("name", "1.2*"); ``name`` -> ("name", None). An ``:arch`` suffix stays in the name."""
    name, sep, version = spec.partition("=")
    if not name or (sep and not version):
        raise ValueError("package '%s' is not a name or name=version" % spec)
    return name.strip(), (version.strip() if sep else None)


def version_matches(installed, wanted):
    """Whether an installed version satisfies ``wanted`` (exact, or a glob such as ``1.2*``)."""
    if installed is None:
        return False
    if wanted is None:
        return True
    return fnmatch.fnmatchcase(installed, wanted)


def parse_simulation(output):
    """``apt-get -s`` output -> {"install": [...], "upgrade": [...], "remove": [...]} of "name (version)" texts."""
    changes = {"install": [], "upgrade": [], "remove": []}  # type: dict[str, list]
    for action, name, old, new in _SIMULATED.findall(output):
        if action == "Inst":
            changes["upgrade" if old else "install"].append("%s (%s)" % (name, new) if new else name)
        else:
            changes["remove"].append("%s (%s)" % (name, old) if old else name)
    return changes


def describe_changes(changes):
    """The diff of a package run: what was there before and what is there after, a line per package."""
    before, after = [], []
    for entry in changes["upgrade"]:
        before.append(entry.split(" ")[0])
        after.append(entry)
    after.extend(changes["install"])
    before.extend(changes["remove"])
    prepared = "".join("%s: %s\n" % (kind, ", ".join(changes[kind])) for kind in ("install", "upgrade", "remove")
                       if changes[kind])
    return {"before": "".join(line + "\n" for line in sorted(before)),
            "after": "".join(line + "\n" for line in sorted(after)),
            "prepared": prepared, "installed": changes["install"] + changes["upgrade"],
            "removed": changes["remove"]}


class Apt(object):
    """One apt task on the host: the cache, the installed versions and apt-get runs, simulated first."""

    def __init__(self, module, params):
        self.module = module
        self.params = params
        self.apt_get = module.get_bin_path("apt-get", required=True)
        self.stdout = ""
        self.stderr = ""

    def run(self, args, check_rc=True):
        rc, out, err = self.module.run_command([self.apt_get, *args], environ_update=APT_ENV)
        if check_rc and rc != 0:
            self.module.fail("'%s' failed: %s" % (" ".join(["apt-get", *args]), err.strip() or out.strip()),
                             rc=rc, stdout=out, stderr=err, cache_updated=False)
        return out, err

    # -- the cache ---------------------------------------------------------------------------------------
    @staticmethod
    def cache_time():
        """When the package lists were last updated (newest of the update stamp and the lists directory)."""
        times = [os.stat(path).st_mtime for path in (UPDATE_STAMP, LISTS_DIR) if os.path.exists(path)]
        return int(max(times)) if times else 0

    def update_cache(self):
        """``apt-get update`` unless the lists are younger than cache_valid_time; (updated, cache time)."""
        valid_for = self.params["cache_valid_time"]
        last = self.cache_time()
        if valid_for and time.time() - last < valid_for:
            return False, last
        if self.module.check_mode:
            return True, last
        retries = max(1, self.params["update_cache_retries"])
        for attempt in range(retries):
            rc, out, err = self.module.run_command([self.apt_get, "update", *self.lock_options()],
                                                   environ_update=APT_ENV)
            if rc == 0:
                break
            if attempt + 1 < retries:
                time.sleep(min(2 ** attempt, self.params["update_cache_retry_max_delay"]))
        else:
            self.module.fail("Failed to update apt cache: %s" % (err.strip() or out.strip()), rc=rc,
                             stdout=out, stderr=err)
        # apt-get leaves the lists directory alone when nothing changed upstream: mark the update ourselves,
        # so cache_valid_time counts from now.
        os.utime(LISTS_DIR, None)
        return True, self.cache_time()

    # -- what is installed and what can be ----------------------------------------------------------------
    def installed_version(self, name):
        """The installed version of ``name``; None when it is not installed (config files left count as not)."""
        rc, out, _ = self.module.run_command(["dpkg-query", "-W", "-f", "${db:Status-Abbrev}\t${Version}", name],
                                             environ_update=APT_ENV)
        if rc != 0 or not out:
            return None
        status, _, version = out.partition("\t")
        return version.strip() if status.startswith(("ii", "hi")) else None

    def has_config_files(self, name):
        rc, out, _ = self.module.run_command(["dpkg-query", "-W", "-f", "${db:Status-Abbrev}", name],
                                             environ_update=APT_ENV)
        return rc == 0 and out.startswith("rc")

    def resolve_version(self, name, wanted):
        """An exact version for a glob such as ``1.2*``: the highest available one that matches."""
        if wanted is None or not any(ch in wanted for ch in "*?["):
            return wanted
        _rc, out, _ = self.module.run_command(["apt-cache", "madison", name], environ_update=APT_ENV)
        for line in out.splitlines():
            fields = [field.strip() for field in line.split("|")]
            if len(fields) >= 2 and fields[0] == name and fnmatch.fnmatchcase(fields[1], wanted):
                return fields[1]
        self.module.fail("no available version of package '%s' matches '%s'" % (name, wanted))

    # -- apt-get options ----------------------------------------------------------------------------------
    def lock_options(self):
        return ["-o", "DPkg::Lock::Timeout=%d" % self.params["lock_timeout"]]

    def install_options(self):
        params = self.params
        options = ["-y", "-q", *self.lock_options()]
        for option in (params["dpkg_options"] or "").split(","):
            if option.strip():
                options += ["-o", "Dpkg::Options::=--%s" % option.strip()]
        if params["install_recommends"] is not None:
            options += ["-o", "APT::Install-Recommends=%s" % ("yes" if params["install_recommends"] else "no")]
        if params["default_release"]:
            options += ["-t", params["default_release"]]
        if params["force"] or params["allow_unauthenticated"]:
            options.append("--allow-unauthenticated")
        if params["force"] or params["allow_downgrade"]:
            options.append("--allow-downgrades")
        if params["force"] or params["allow_change_held_packages"]:
            options.append("--allow-change-held-packages")
        if params["force"]:
            options.append("--allow-remove-essential")
        if params["only_upgrade"]:
            options.append("--only-upgrade")
        if params["autoremove"]:
            options.append("--auto-remove")
        if params["purge"]:
            options.append("--purge")
        return options

    def apply(self, command, targets):
        """Simulate ``apt-get COMMAND TARGETS``; unless in check mode and when it changes something, run it.

        Returns the changes as parse_simulation gives them.
        """
        options = self.install_options()
        simulated, _ = self.run(["-s", *options, command, *targets])
        changes = parse_simulation(simulated)
        if self.params["fail_on_autoremove"] and command != "autoremove" and changes["remove"] and \
                command not in ("remove", "purge"):
            self.module.fail("'apt-get %s' would remove packages and fail_on_autoremove is set: %s"
                             % (command, ", ".join(changes["remove"])))
        if not any(changes.values()):
            self.stdout = simulated
            return changes
        if self.module.check_mode:
            self.stdout = simulated
        else:
            self.stdout, self.stderr = self.run([*options, command, *targets])
        return changes

    # -- states -------------------------------------------------------------------------------------------
    def install_targets(self, specs, latest):
        """What to hand apt-get install: packages missing or at another version (all of them for latest)."""
        targets = []
        for spec in specs:
            try:
                name, wanted = split_spec(spec)
            except ValueError as exc:
                self.module.fail(str(exc))
            if latest and wanted is not None:
                self.module.fail("version number inconsistent with state=latest: %s" % spec)
            installed = self.installed_version(name)
            if latest or not version_matches(installed, wanted):
                version = self.resolve_version(name, wanted)
                targets.append(name if version is None else "%s=%s" % (name, version))
        return targets

    def remove_targets(self, specs):
        targets = []
        for spec in specs:
            name, wanted = split_spec(spec)
            installed = self.installed_version(name)
            # purge also takes a package whose configuration files are all that is left of it
            if version_matches(installed, wanted) or (self.params["purge"] and self.has_config_files(name)):
                targets.append(name)
        return targets

    def deb_targets(self, deb):
        """A .deb file on the host: nothing to do when that very version is installed."""
        if not os.path.isfile(deb):
            self.module.fail("deb: %s does not exist or is not a file" % deb)
        rc, out, err = self.module.run_command(["dpkg-deb", "-f", deb, "Package", "Version"], environ_update=APT_ENV)
        if rc != 0:
            self.module.fail("deb: %s is not a Debian package: %s" % (deb, err.strip()))
        fields = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
        if self.installed_version(fields.get("Package", "")) == fields.get("Version"):
            return []
        return [os.path.abspath(deb)]

    def ensure(self):
        params = self.params
        state = _STATE_ALIASES.get(params["state"], params["state"])
        specs = params["name"] or []
        empty = {"install": [], "upgrade": [], "remove": []}  # type: dict[str, list]
        if params["deb"]:
            targets = self.deb_targets(params["deb"])
            return self.apply("install", targets) if targets else empty
        if state == "build-dep":
            return self.apply("build-dep", specs) if specs else empty
        if state == "fixed":
            return self.apply("install", ["--fix-broken", *specs])
        if state == "absent":
            targets = self.remove_targets(specs)
            if targets:
                return self.apply("remove", targets)
        elif specs:
            targets = self.install_targets(specs, latest=(state == "latest"))
            if targets:
                return self.apply("install", targets)
        upgrade = upgrade_mode(params["upgrade"], self.module)
        if upgrade != "no":
            command = _UPGRADE_COMMANDS[upgrade]
            return self.apply(command[0], command[1:])
        if params["autoremove"] and not specs:
            return self.apply("autoremove", [])
        return empty

    def has_work(self):
        """Whether the task asks for more than a cache update."""
        params = self.params
        return bool(params["name"] or params["deb"] or params["autoremove"]
                    or upgrade_mode(params["upgrade"], self.module) != "no")


class PolicyRcD(object):
    """/usr/sbin/policy-rc.d exiting with ``code`` for the time of the block (not in check mode, where nothing is
    installed); the file that was there before comes back after, even when the block fails."""

    def __init__(self, module, code):
        self.module = module
        self.code = None if module.check_mode else code
        self.saved = None

    def __enter__(self):
        if self.code is None:
            return self
        import shutil
        import tempfile
        if os.path.lexists(POLICY_RC_D):
            # moved, not renamed: the temp directory is often another filesystem (a tmpfs /tmp), as ansible-core's
            self.saved = tempfile.mkdtemp(prefix="provisioning-policy-rc.d.")
            shutil.move(POLICY_RC_D, os.path.join(self.saved, "policy-rc.d"))
        try:
            self.module.atomic_write(POLICY_RC_D, ("#!/bin/sh\nexit %d\n" % self.code).encode())
            os.chmod(POLICY_RC_D, 0o755)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        if self.code is None:
            return
        remove_quietly(POLICY_RC_D)
        if self.saved is not None:
            import shutil
            shutil.move(os.path.join(self.saved, "policy-rc.d"), POLICY_RC_D)
            os.rmdir(self.saved)


def run_apt(module, params):
    """The apt module's whole run with ``params`` (validated against ARGUMENT_SPEC); its result dict."""
    apt = Apt(module, params)
    cache_updated, cache_time = False, apt.cache_time()
    # cache_valid_time alone asks for an update too (as Ansible reads it), update_cache: false does not
    if params["update_cache"] or (params["cache_valid_time"] and params["update_cache"] is None):
        cache_updated, cache_time = apt.update_cache()
    if params["clean"]:
        if not module.check_mode:
            apt.stdout, apt.stderr = apt.run(["clean"])
        if not apt.has_work() and not params["autoclean"]:
            return {"changed": True, "msg": apt.stdout, "stdout": apt.stdout, "stderr": apt.stderr,
                    "cache_updated": cache_updated, "cache_update_time": cache_time}
    with PolicyRcD(module, params["policy_rc_d"]):
        changes = apt.ensure()
    if params["autoclean"] and not module.check_mode:
        apt.run(["autoclean", "-q", *apt.lock_options()])
    changed = any(changes.values())
    if not apt.has_work():
        # A cache update alone: ansible-core's result has these three keys, the update its only change
        result = {"changed": cache_updated, "cache_updated": cache_updated, "cache_update_time": cache_time}
        if cache_updated and module.diff_mode:
            result["diff"] = {"prepared": "package lists updated\n"}
        return result
    result = {"changed": changed, "cache_updated": cache_updated,
              "cache_update_time": cache_time, "stdout": apt.stdout, "stderr": apt.stderr,
              "stdout_lines": apt.stdout.splitlines(), "stderr_lines": apt.stderr.splitlines()}
    if changed:
        result["diff"] = describe_changes(changes)
    return result
