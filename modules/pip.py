"""Manage Python packages with pip, system-wide or in a virtualenv it creates."""

import os
import re
import shlex

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Manages Python library dependencies",
    "description": [
        "Installs, upgrades and removes Python packages with pip, optionally in a virtualenv that is created "
        "first (with virtualenv_command, e.g. 'python3 -m venv').",
        "A named package with a version specifier (six==1.16.0, six>=1.15,<2) already satisfied is left alone; "
        "otherwise pip runs and changed is whether the installed packages (pip list) differ afterwards.",
        "Check mode decides from the installed packages; for latest and requirements files it asks pip "
        "(pip install --dry-run) what would be installed, where pip is new enough (>= 22.2), and else predicts "
        "a change, as Ansible does.",
    ],
    "options": {
        "name": {"description": "Package names, each optionally with a version specifier, or URLs/paths.",
                 "type": "list", "elements": "str"},
        "version": {"description": "The version of the single package in name.", "type": "str"},
        "requirements": {"description": "Path of a pip requirements file.", "type": "str"},
        "virtualenv": {"description": "A virtualenv directory to install into; created when missing.",
                       "type": "path"},
        "virtualenv_site_packages": {"description": "The virtualenv sees the global site-packages.",
                                     "type": "bool", "default": False},
        "virtualenv_command": {"description": "The command that creates the virtualenv (virtualenv, or "
                                              "'python3 -m venv').", "type": "path", "default": "virtualenv"},
        "virtualenv_python": {"description": "The Python the virtualenv uses (virtualenv -p).", "type": "str"},
        "state": {"description": "present, latest, absent, or forcereinstall (reinstalled every run).",
                  "type": "str", "default": "present",
                  "choices": ["absent", "forcereinstall", "latest", "present"]},
        "extra_args": {"description": "Further arguments for pip.", "type": "str"},
        "editable": {"description": "Install in editable mode (pip install -e).", "type": "bool",
                     "default": False},
        "chdir": {"description": "Run pip in this directory.", "type": "path"},
        "executable": {"description": "The pip to use (e.g. pip3.11, /opt/py/bin/pip), without virtualenv.",
                       "type": "path"},
        "umask": {"description": "The umask pip runs with (octal text, e.g. '0022').", "type": "str"},
        "break_system_packages": {"description": "Let pip change a Python that the OS manages "
                                                 "(--break-system-packages).", "type": "bool", "default": False},
    },
}

EXAMPLES = """
- name: A tool in its own virtualenv
  pip:
    name: httpie==3.2.2
    virtualenv: /opt/httpie
    virtualenv_command: python3 -m venv

- name: The application's requirements
  pip:
    requirements: /srv/app/requirements.txt
    virtualenv: /srv/app/venv
    virtualenv_command: python3 -m venv
"""

RETURN = {"cmd": "The pip command run", "name": "name as given", "version": "version as given",
          "requirements": "requirements as given", "virtualenv": "virtualenv as given", "state": "state as given",
          "stdout": "pip's output", "stderr": "pip's error output"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_one_of": [["name", "requirements"]],
              "mutually_exclusive": [["name", "requirements"], ["executable", "virtualenv"]]}
SUPPORTS_CHECK_MODE = True

PIP_ENV = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*?)\s*$")
_CLAUSE = re.compile(r"^(===|==|!=|~=|>=|<=|>|<)\s*(\S+)$")


# -- requirements and versions ------------------------------------------------------------------------------------
def canonical_name(name):
    """PEP 503's normalised project name: Foo_Bar and foo-bar are one package."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_requirement(text):
    """(canonical name, [(operator, version)]) of ``name[extras] op version, ...``; None for URLs and paths."""
    if "://" in text or text.startswith((".", "/", "-")) or "@" in text:
        return None
    match = _REQUIREMENT.match(text)
    if match is None:
        return None
    clauses = []
    for clause in filter(None, (part.strip() for part in match.group(3).split(","))):
        found = _CLAUSE.match(clause)
        if found is None:
            return None
        clauses.append((found.group(1), found.group(2)))
    return canonical_name(match.group(1)), clauses


_VERSION = re.compile(r"^v?(\d+(?:\.\d+)*)(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d*))?"
                      r"(?:[-_.]?(post|rev|r)[-_.]?(\d*))?(?:[-_.]?(dev)[-_.]?(\d*))?(?:\+.*)?$", re.I)
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}


def version_key(version):
    """A sort key for a PEP 440 version: 1.10 > 1.9, 2.0a1 < 2.0 == 2, 1.0.post1 > 1.0, 1.0.dev1 < 1.0a1."""
    found = _VERSION.match(version.strip())
    if found is None:
        return ((), (2,), (-1,), (1, 0), version)  # not a PEP 440 version: compared as text after the release
    release, pre, pre_n, post, post_n, dev, dev_n = found.groups()
    numbers = [int(part) for part in release.split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    if pre:
        pre_key = (1, _PRE_RANK[pre.lower()], int(pre_n or 0))
    elif dev and not post:
        pre_key = (0,)  # 1.0.dev1 comes before 1.0a1
    else:
        pre_key = (2,)
    post_key = (int(post_n or 0),) if post else (-1,)
    dev_key = (0, int(dev_n or 0)) if dev else (1, 0)
    return (tuple(numbers), pre_key, post_key, dev_key, "")


def satisfies(installed, clauses):
    """Whether an installed version meets every clause (==1.2.* included)."""
    for operator, wanted in clauses:
        if operator in ("==", "===", "!=") and wanted.endswith(".*"):
            prefix = wanted[:-2].split(".")
            matched = installed.split(".")[:len(prefix)] == prefix
            if matched != (operator != "!="):
                return False
            continue
        have, want = version_key(installed), version_key(wanted)
        ok = {"==": have == want, "===": installed == wanted, "!=": have != want, ">=": have >= want,
              "<=": have <= want, ">": have > want, "<": have < want,
              "~=": have >= want and compatible(installed, wanted)}[operator]
        if not ok:
            return False
    return True


def compatible(installed, wanted):
    """~=: the release up to the last component of ``wanted`` matches (~=1.4.2 allows 1.4.x)."""
    prefix = wanted.split(".")[:-1] or wanted.split(".")
    return installed.split(".")[:len(prefix)] == prefix


def parse_freeze(text):
    """``pip list --format=freeze`` -> {canonical name: version}."""
    packages = {}
    for line in text.splitlines():
        name, sep, version = line.strip().partition("==")
        if sep:
            packages[canonical_name(name)] = version
    return packages


def freeze_diff(before, after):
    """The before/after of the packages that changed, one ``name==version`` line each."""
    names = sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))
    return {"before": "".join("%s==%s\n" % (name, before[name]) for name in names if name in before),
            "after": "".join("%s==%s\n" % (name, after[name]) for name in names if name in after)}


# -- the run -------------------------------------------------------------------------------------------------------
class Pip(object):
    def __init__(self, module):
        self.module = module
        self.params = module.params
        self.command = None
        self.stdout = ""
        self.stderr = ""

    def run(self, argv, check_rc=True):
        previous = None
        if self.params["umask"]:
            previous = os.umask(int(self.params["umask"], 8))
        try:
            rc, out, err = self.module.run_command(argv, cwd=self.params["chdir"], environ_update=PIP_ENV)
        finally:
            if previous is not None:
                os.umask(previous)
        if check_rc and rc != 0:
            self.module.fail("%s failed: %s" % (" ".join(argv[:3]), (err or out).strip()), cmd=" ".join(argv),
                             rc=rc, stdout=out, stderr=err)
        return rc, out, err

    def ensure_virtualenv(self):
        """Create the virtualenv when missing; True when it was (or would be) created."""
        params = self.params
        venv = params["virtualenv"]
        if os.path.exists(os.path.join(venv, "bin", "activate")) or self.module.isdir(os.path.join(venv, "bin")):
            return False
        if self.module.check_mode:
            self.module.predict(venv, "directory")
            return True
        command = shlex.split(params["virtualenv_command"])
        found = self.module.get_bin_path(command[0]) if not os.path.isabs(command[0]) else command[0]
        if not found or not os.path.exists(found):
            self.module.fail("virtualenv_command: cannot find '%s' on the host; install it, or use "
                             "virtualenv_command: python3 -m venv" % command[0])
        argv = [found, *command[1:]]
        is_venv_module = "venv" in command[1:] or os.path.basename(command[0]).startswith("pyvenv")
        if params["virtualenv_site_packages"]:
            argv.append("--system-site-packages")
        if params["virtualenv_python"]:
            if is_venv_module:
                self.module.fail("virtualenv_python should not be used when using the venv module or pyvenv "
                                 "as virtualenv_command")
            argv += ["-p", params["virtualenv_python"]]
        self.run([*argv, venv])
        return True

    def pip_binary(self):
        params = self.params
        if params["virtualenv"]:
            return os.path.join(params["virtualenv"], "bin", "pip")
        if params["executable"]:
            return params["executable"]
        found = self.module.get_bin_path("pip3") or self.module.get_bin_path("pip")
        if found is None:
            self.module.fail("Unable to find any of pip3, pip to use. pip needs to be installed.")
        return found

    def installed(self, pip):
        if not os.path.exists(pip):
            return {}  # the virtualenv exists only in this check run's prediction
        _, out, _ = self.run([pip, "list", "--format=freeze"])
        return parse_freeze(out)

    def targets(self):
        params = self.params
        names = list(params["name"] or [])
        if params["version"]:
            if len(names) != 1:
                self.module.fail("version is incompatible with several packages in name; put the versions in "
                                 "name (pkg==1.0)")
            if parse_requirement(names[0]) is None or parse_requirement(names[0])[1]:
                self.module.fail("version is incompatible with a name that has a version specifier or is a URL")
            names = ["%s==%s" % (names[0], params["version"])]
        return names

    def install_command(self, pip, names):
        params = self.params
        argv = [pip, "install"]
        if params["state"] in ("latest", "forcereinstall"):
            argv.append("-U")
        if params["state"] == "forcereinstall":
            argv.append("--force-reinstall")
        if params["break_system_packages"]:
            argv.append("--break-system-packages")
        if params["extra_args"]:
            argv += shlex.split(params["extra_args"])
        if params["requirements"]:
            argv += ["-r", params["requirements"]]
        for name in names:
            argv += ["-e", name] if params["editable"] else [name]
        return argv

    def all_satisfied(self, names, installed):
        for name in names:
            parsed = parse_requirement(name)
            if parsed is None or parsed[0] not in installed or not satisfies(installed[parsed[0]], parsed[1]):
                return False
        return True

    def predicts_change(self, argv, names, installed):
        """Check mode: whether the install would change anything."""
        params = self.params
        if params["state"] == "forcereinstall":
            return True
        if params["state"] == "present" and names and not params["requirements"]:
            return not self.all_satisfied(names, installed)
        if not os.path.exists(argv[0]):
            return True
        rc, out, err = self.run([*argv[:2], "--dry-run", *argv[2:]], check_rc=False)
        if rc != 0 and "no such option: --dry-run" in err:
            return True
        if rc != 0:
            self.module.fail("%s failed: %s" % (" ".join([*argv[:2], "--dry-run"]), (err or out).strip()), rc=rc)
        self.stdout = out
        return "Would install" in out


def run(module):
    params = module.params
    pip_task = Pip(module)
    created = pip_task.ensure_virtualenv() if params["virtualenv"] else False
    pip = pip_task.pip_binary()
    names = pip_task.targets()
    before = pip_task.installed(pip)
    result = {"name": names, "version": params["version"], "requirements": params["requirements"],
              "virtualenv": params["virtualenv"], "state": params["state"], "changed": created}
    if params["state"] == "absent":
        parsed = [parse_requirement(name) for name in names]
        present = [requirement[0] for requirement in parsed if requirement and requirement[0] in before]
        argv = [pip, "uninstall", "-y"] + (shlex.split(params["extra_args"]) if params["extra_args"] else [])
        argv += present + (["-r", params["requirements"]] if params["requirements"] else [])
        result["cmd"] = " ".join(argv)
        if not present and not params["requirements"]:
            return result
        if module.check_mode:
            remaining = dict((name, version) for name, version in before.items() if name not in present)
            result.update(changed=True, diff=freeze_diff(before, remaining))
            return result
    else:
        argv = pip_task.install_command(pip, names)
        result["cmd"] = " ".join(argv)
        if params["state"] == "present" and names and pip_task.all_satisfied(names, before):
            return result
        if module.check_mode:
            result["changed"] = created or pip_task.predicts_change(argv, names, before)
            result["stdout"] = pip_task.stdout
            if result["changed"]:
                result["diff"] = {"before": "", "after": "virtualenv %s\n" % params["virtualenv"]} if created \
                    else {"prepared": pip_task.stdout or "would run: %s\n" % result["cmd"]}
            return result
    _, out, err = pip_task.run(argv)
    after = pip_task.installed(pip)
    result.update(stdout=out, stderr=err, changed=created or after != before or params["state"] == "forcereinstall")
    if result["changed"]:
        result["diff"] = freeze_diff(before, after)
    return result
