"""The host's installed packages as facts: ansible_facts.packages, by name."""

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Package information as facts",
    "description": [
        "Sets ansible_facts.packages: each installed package's name maps to a list of its installed versions "
        "(a package may be installed for several architectures), each with name, version, arch and source "
        "(the manager), as ansible-core returns them.",
        "apt packages are read from dpkg's database with dpkg-query (python3-apt is not needed), with category "
        "(the section) and origin (dpkg's Origin field, empty for most packages; ansible-core takes the "
        "repository's origin from apt's cache). rpm packages are read with rpm -qa, with release and epoch.",
        "manager auto tries the managers in order (apt, then rpm) and, with strategy first, keeps the first that "
        "lists packages; the names of ansible_facts.pkg_mgr are accepted (dnf, yum, zypper as rpm). portage, "
        "pkg, pacman, apk and pkg_info are known but not implemented: asked for, they give a warning.",
        "It changes nothing.",
    ],
    "options": {
        "manager": {"description": "The package managers to ask: auto, apt, rpm (yum, dnf, dnf5 and zypper as "
                                   "aliases), portage, pkg (pkg5, pkgng), pacman, apk, pkg_info (openbsd_pkg).",
                    "type": "list", "elements": "str", "default": ["auto"]},
        "strategy": {"description": "first: the first manager that lists packages; all: every one of them.",
                     "type": "str", "default": "first", "choices": ["first", "all"]},
    },
}

EXAMPLES = """
- name: Gather the package facts
  package_facts:

- name: Say whether nginx is installed
  debug:
    msg: "{{ 'nginx' in ansible_facts.packages }}"
"""

RETURN = {"ansible_facts": "packages: name -> list of {name, version, arch, source, ...}"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

ALIASES = {"rpm": ["yum", "dnf", "dnf5", "zypper"], "pkg": ["pkg5", "pkgng"], "pkg_info": ["openbsd_pkg"]}
# In the order auto tries them.
MANAGERS = ("apt", "rpm", "portage", "pkg", "pacman", "apk", "pkg_info")
NOT_IMPLEMENTED = ("portage", "pkg", "pacman", "apk", "pkg_info")


def canonical(name):
    for manager, aliases in ALIASES.items():
        if name in aliases:
            return manager
    return name


def apt_packages(module):
    dpkg_query = module.get_bin_path("dpkg-query")
    if not dpkg_query:
        return None
    _rc, native, _err = module.run_command(["dpkg", "--print-architecture"])
    native = native.strip()
    fields = "${db:Status-Abbrev}\t${Package}\t${Version}\t${Architecture}\t${Section}\t${Origin}\n"
    rc, out, err = module.run_command([dpkg_query, "-W", "-f", fields], environ_update={"LANG": "C"})
    if rc != 0:
        module.warn("Failed to retrieve packages with apt: %s" % err.strip())
        return {}
    packages = {}  # type: dict
    for line in out.splitlines():
        status, name, version, arch, section, origin = (line.split("\t") + [""] * 6)[:6]
        if not status.startswith(("ii", "hi", "iU", "iF", "hU", "hF")):
            continue  # removed, with configuration files left, or never installed
        key = name if arch in (native, "all") else "%s:%s" % (name, arch)
        packages.setdefault(key, []).append({"name": key, "version": version, "arch": arch, "category": section,
                                             "origin": origin, "source": "apt"})
    return packages


def rpm_packages(module):
    rpm = module.get_bin_path("rpm")
    if not rpm:
        return None
    query = "%{NAME}\t%{VERSION}\t%{RELEASE}\t%{EPOCHNUM}\t%{ARCH}\n"
    rc, out, err = module.run_command([rpm, "-qa", "--qf", query], environ_update={"LANG": "C"})
    if rc != 0:
        module.warn("Failed to retrieve packages with rpm: %s" % err.strip())
        return {}
    packages = {}  # type: dict
    for line in out.splitlines():
        name, version, release, epoch, arch = (line.split("\t") + [""] * 5)[:5]
        packages.setdefault(name, []).append({"name": name, "version": version, "release": release,
                                              "epoch": int(epoch) if epoch.isdigit() and epoch != "0" else None,
                                              "arch": arch, "source": "rpm"})
    return packages


READERS = {"apt": apt_packages, "rpm": rpm_packages}


def run(module):
    params = module.params
    asked = [name.lower() for name in params["manager"]]
    known = set(MANAGERS) | set(alias for aliases in ALIASES.values() for alias in aliases) | {"auto"}
    unsupported = sorted(set(asked) - known)
    if unsupported:
        module.fail("Unsupported package managers requested: %s" % ", ".join(unsupported))
    order = []
    for name in asked:
        for manager in (MANAGERS if name == "auto" else [canonical(name)]):
            if manager not in order:
                order.append(manager)
    packages, found = {}, 0  # type: dict, int
    for manager in order:
        if params["strategy"] == "first" and found:
            break
        reader = READERS.get(manager)
        if reader is None:
            if manager in asked:
                module.warn("Requested package manager %s was not usable by this module: not implemented"
                            % manager)
            continue
        listed = reader(module)
        if listed is None:
            if manager in [canonical(name) for name in asked]:
                module.warn("Requested package manager %s was not usable by this module: its tools are not "
                            "installed" % manager)
            continue
        if not listed:
            module.warn('Found "%s" but no associated packages' % manager)
            continue
        found += 1
        for name, entries in listed.items():
            packages.setdefault(name, []).extend(entries)
    if not found:
        module.fail("Could not detect a supported package manager from the following list: %s, or the required "
                    "Python library is not installed. Check warnings for details." % order)
    return {"changed": False, "ansible_facts": {"packages": packages}}
