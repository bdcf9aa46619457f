"""dnf and dnf5: their shared options, and what they do on a host. This project's hosts are Debian: on a host
without the RPM tools the modules fail exactly as ansible-core's do there, so a role that branches on the OS
family loads and runs; a real transaction needs an RPM-based host to be developed against."""

import platform
import sys

from modules._pkgmgr import detect_manager

# The interpreters ansible-core probes for the dnf bindings before it gives up (its message lists them).
SYSTEM_INTERPRETERS = ["/usr/libexec/platform-python", "/usr/bin/python3", "/usr/bin/python"]


def _option(description, kind="bool", **extra):
    return dict({"description": description, "type": kind}, **extra)


OPTIONS = {
    "name": _option("Package names or specs (name-1.0, a path or URL of an .rpm, @group, @module:stream).",
                    "list", elements="str", default=[], aliases=["pkg"]),
    "state": _option("present/installed, latest, absent/removed (default: present, or nothing with "
                     "autoremove).", "str", choices=["absent", "present", "installed", "removed", "latest"]),
    "list": _option("Informational listing: installed, updates, available, repos or a package spec.", "str"),
    "enablerepo": _option("Repositories enabled for this transaction.", "list", elements="str", default=[]),
    "disablerepo": _option("Repositories disabled for this transaction.", "list", elements="str", default=[]),
    "conf_file": _option("The dnf configuration file to use.", "str"),
    "disable_gpg_check": _option("Do not check package signatures.", default=False),
    "installroot": _option("Install relative to this root.", "str", default="/"),
    "releasever": _option("Install from this release.", "str"),
    "autoremove": _option("Remove leaf packages no longer needed.", default=False),
    "exclude": _option("Packages excluded from the transaction.", "list", elements="str", default=[]),
    "skip_broken": _option("Skip unavailable or broken packages.", default=False),
    "update_cache": _option("Refresh the metadata first.", default=False, aliases=["expire-cache"]),
    "update_only": _option("With latest: only update installed packages.", default=False),
    "security": _option("With latest: only security updates.", default=False),
    "bugfix": _option("With latest: only bugfix updates.", default=False),
    "enable_plugin": _option("Plugins enabled for this transaction.", "list", elements="str", default=[]),
    "disable_plugin": _option("Plugins disabled for this transaction.", "list", elements="str", default=[]),
    "disable_excludes": _option("Configured excludes to disable: all, main or a repository id.", "str"),
    "validate_certs": _option("Verify TLS certificates of .rpm URLs.", default=True),
    "sslverify": _option("Verify the repositories' TLS certificates.", default=True),
    "allow_downgrade": _option("Allow installing an older version.", default=False),
    "install_repoquery": _option("No effect (deprecated in ansible-core).", default=True),
    "download_only": _option("Only download the packages.", default=False),
    "download_dir": _option("Where download_only puts them.", "str"),
    "lock_timeout": _option("Seconds to wait for the dnf lock.", "int", default=30),
    "install_weak_deps": _option("Install weak dependencies too.", default=True),
    "allowerasing": _option("Allow erasing installed packages to resolve dependencies.", default=False),
    "nobest": _option("Opposite of best.", "bool"),
    "best": _option("Install the best version or fail.", "bool"),
    "cacheonly": _option("Use the cache only.", default=False),
}
SPEC_RULES = {"required_one_of": [["name", "list", "update_cache"]],
              "mutually_exclusive": [["name", "list"], ["best", "nobest"]]}

NO_TRANSACTIONS = ("%s transactions are not implemented: this runner's modules are developed on Debian hosts, "
                   "and this host has %s. See docs/modules.md.")


def python_version():
    return sys.version.replace("\n", "")


def fail_without_dnf_bindings(module):
    """What ansible-core's dnf module answers where Python's dnf bindings cannot be imported."""
    module.fail("Could not import the dnf python module using %s (%s). Please install `python3-dnf` package or "
                "ensure you have specified the correct ansible_python_interpreter. (attempted %s)"
                % (sys.executable, python_version(), SYSTEM_INTERPRETERS), results=[])


def run_dnf4(module):
    try:
        import dnf  # noqa: F401  (the bindings ansible-core's dnf module drives)
    except ImportError:
        fail_without_dnf_bindings(module)
    module.fail(NO_TRANSACTIONS % ("dnf", "dnf on %s" % platform.node()), results=[])


def run_dnf5(module):
    try:
        import libdnf5  # noqa: F401
    except ImportError:
        if not module.get_bin_path("dnf"):
            # ansible-core installs the bindings with dnf, which is not there: its run_command error
            module.fail("Error executing command.", cmd="dnf install -y python3-libdnf5", rc=2, stdout="",
                        stderr="")
    module.fail(NO_TRANSACTIONS % ("dnf5", "dnf5"), failures=[], rc=1)


def run_dnf(module, backend):
    """dnf's use_backend: auto and yum choose by the host's package manager, as ansible-core's dnf action
    chooses by ansible_facts.pkg_mgr."""
    if backend in ("auto", "yum"):
        manager = detect_manager(module)
        if manager in ("dnf", "yum"):
            backend = "dnf"
        elif manager == "dnf5":
            backend = "dnf5"
        else:
            module.fail("Could not detect which major revision of dnf is in use, which is required to determine "
                        "module backend. You should manually specify use_backend to tell the module whether to "
                        "use the dnf4 or dnf5 backend})", ansible_facts={"pkg_mgr": manager or "unknown"})
    if backend == "dnf5":
        run_dnf5(module)
    run_dnf4(module)
