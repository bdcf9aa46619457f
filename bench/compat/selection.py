"""Which targets apply to Debian test hosts without containers, in which group, and why the others do not.

Most reasons come from a target's ``aliases`` (``windows``, ``cloud/...``, ``disabled`` ...); the rest from
``NEEDS`` below, for what aliases do not say (a network service, a package mirror, another distribution).
``python -m bench.compat --write-selection`` writes the result to ``selection.yml``, the data file the
harness runs from.
"""

from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml import YAML

from bench.compat.sdist import ANSIBLE_CORE_VERSION
from bench.compat.targets import Target, TargetSet

SELECTION_FILE = Path(__file__).with_name("selection.yml")  # of the pinned version (sdist.ANSIBLE_CORE_VERSION)

GROUPS = ("engine", "lookups", "filters_tests", "file_modules", "system_modules", "cli")
GROUP_TITLES = {
    "engine": "engine semantics",
    "lookups": "lookups",
    "filters_tests": "filters and tests",
    "file_modules": "file modules",
    "system_modules": "system modules",
    "cli": "CLI (runme.sh)",
}

FILE_MODULES = {"assemble", "blockinfile", "copy", "fetch", "file", "find", "get_url", "lineinfile", "replace",
                "slurp", "stat", "tempfile", "template", "unarchive", "unsafe_writes", "uri"}
SYSTEM_MODULES = {"apt", "apt_key", "apt_repository", "command_shell", "cron", "deb822_repository", "debconf",
                  "dpkg_selections", "expect", "facts_d", "facts_linux_network", "gathering_facts", "getent",
                  "group", "hardware_facts", "hostname", "iptables", "known_hosts", "mount_facts", "package",
                  "package_facts", "pause", "ping", "pip", "raw", "reboot", "script", "service", "service_facts",
                  "shell", "systemd", "user", "wait_for", "wait_for_connection", "async", "async_fail",
                  "async_extra_data", "git", "subversion"}
FILTER_TEST_TARGETS = {"jinja2_native_types", "jinja_plugins", "templating", "template_jinja2_non_native",
                       "templating_settings", "split"}
LOOKUP_TARGETS = {"templating_lookups", "templating_lookup_args", "lookup-option-name", "path_lookups", "unvault"}
CLI_TARGETS = {"adhoc", "ansible", "cli", "config", "playbook", "limit_inventory", "packaging_cli-doc"}

# What aliases do not say: the reason a target cannot run on this machine's Debian test hosts.
NETWORK = "needs the network (a package mirror, PyPI, a web or VCS server)"
NEEDS: dict[str, str] = {
    "apt": NETWORK, "apt_key": NETWORK, "apt_repository": NETWORK, "deb822_repository": NETWORK,
    "get_url": NETWORK, "uri": NETWORK, "lookup_url": NETWORK, "git": NETWORK, "subversion": NETWORK,
    "pip": NETWORK, "package": NETWORK, "ansible-galaxy": NETWORK, "ansible-galaxy-collection": NETWORK,
    "ansible-galaxy-collection-cli": NETWORK, "ansible-galaxy-collection-scm": NETWORK,
    "ansible-galaxy-role": NETWORK, "ansible-pull": NETWORK, "module_utils_urls": NETWORK,
    "dnf": "RHEL/Fedora only (dnf)", "dnf-latest": "RHEL/Fedora only (dnf)", "dnf-oldest": "RHEL/Fedora only (dnf)",
    "yum_repository": "RHEL/Fedora only (yum)", "rpm_key": "RHEL/Fedora only (rpm)",
    "reboot": "reboots the host; test hosts are namespaces of the controller",
    "hostname": "changes the host's name with the distribution's tools; test hosts are UTS namespaces without them",
    "iptables": "changes the controller's firewall: test hosts share its network namespace",
    "facts_linux_network": "adds network interfaces: test hosts share the controller's network namespace",
    "ssh_agent": "starts ssh-agent on the controller and drives ansible's ssh connection plugin",
    "connection_ssh": "tests ansible's OpenSSH connection plugin (ours is asyncssh)",
    "connection_paramiko_ssh": "tests ansible's paramiko connection plugin",
    "connection_local": "tests ansible's connection plugins' internals",
    "connection_remote_is_local": "tests ansible's connection plugins' internals",
    "fork_safe_stdio": "tests ansible's worker processes' stdio handling",
    "ansible-vault": "installs Python packages into a virtualenv on the controller",
    "ansible-inventory": "installs Python packages into a virtualenv on the controller",
    "builtin_vars_prompt": "installs pexpect into a virtualenv on the controller",
    "collections_runtime_pythonpath": "installs Python packages into a virtualenv on the controller",
    "debugger": "installs pexpect into a virtualenv on the controller",
    "entry_points": "installs ansible-core into a virtualenv on the controller",
    "inventory_toml": "installs Python packages into a virtualenv on the controller",
    "lookup_password": "installs passlib into a virtualenv on the controller",
    "packaging_cli-doc": "builds ansible-core's own documentation",
    "pause": "installs pexpect into a virtualenv on the controller",
    "pyyaml": "installs PyYAML variants into a virtualenv on the controller",
    "template_jinja2_non_native": "installs Jinja2 into a virtualenv on the controller",
    "delegate_to": "installs Python packages into a virtualenv on the controller",
}


def exclusion_reason(target: Target) -> str | None:
    """Why ``target`` is left out, or None when it applies; aliases first, then ``NEEDS``."""
    if target.is_support:
        return "support role run by other targets, not a test on its own"
    if not target.is_script and not target.is_role:
        return "neither runme.sh nor tasks/main.yml"
    if target.has_alias("disabled"):
        return "disabled upstream (aliases: disabled)"
    if target.has_alias("windows") or target.has_alias("shippable/windows") or target.name.startswith("win_"):
        return "needs Windows"
    if target.has_alias("network") or target.has_alias("shippable/ios") or target.name.startswith("incidental_"):
        return "needs network devices"
    cloud = target.alias_values("cloud")
    if cloud:
        return f"needs a cloud service (aliases: cloud/{cloud[0]})"
    if target.has_alias("needs/httptester"):
        return "needs ansible-test's httptester container (aliases: needs/httptester)"
    if target.has_alias("needs/privileged"):
        return "needs a privileged container (aliases: needs/privileged)"
    if target.name.startswith("ansible-test"):
        return "tests ansible-test itself"
    if target.name.startswith("module_utils_Ansible.") or target.name == "binary_modules_winrm":
        return "needs Windows"
    if target.has_alias("shippable/galaxy"):
        return "needs a Galaxy server (aliases: shippable/galaxy)"
    if not (target.has_alias("shippable/posix") or target.has_alias("shippable/generic")):
        return "not in ansible-test's POSIX groups (no shippable/posix or shippable/generic alias)"
    if target.name in NEEDS:
        return NEEDS[target.name]
    if target.is_script and target.has_alias("destructive"):
        return "destructive to the controller (aliases: destructive, runs ansible on the controller)"
    if target.is_script and target.has_alias("needs/root"):
        return "needs root on the controller (aliases: needs/root on a runme.sh target)"
    return None


def group_of(target: Target) -> str:
    name = target.name
    if name.startswith("lookup_") or name in LOOKUP_TARGETS:
        return "lookups"
    if name.startswith(("filter_", "test_")) or name in FILTER_TEST_TARGETS:
        return "filters_tests"
    if name in FILE_MODULES:
        return "file_modules"
    if name in SYSTEM_MODULES:
        return "system_modules"
    if name.startswith(("ansible-", "inventory")) or name in CLI_TARGETS:
        return "cli"
    return "engine"


def classify(targets: TargetSet) -> tuple[dict[str, list[str]], dict[str, str]]:
    """(group -> applicable target names, left-out target name -> reason)."""
    groups: dict[str, list[str]] = {group: [] for group in GROUPS}
    excluded: dict[str, str] = {}
    for target in targets:
        reason = exclusion_reason(target)
        if reason is None:
            groups[group_of(target)].append(target.name)
        else:
            excluded[target.name] = reason
    return groups, excluded


def selection_file(version: str = ANSIBLE_CORE_VERSION) -> Path:
    """``selection.yml`` for the pinned version, ``selection-X.Y.Z.yml`` beside it for another one."""
    return SELECTION_FILE if version == ANSIBLE_CORE_VERSION else SELECTION_FILE.with_name(f"selection-{version}.yml")


def write_selection(targets: TargetSet, version: str, path: Path | None = None) -> Path:
    path = path or selection_file(version)
    groups, excluded = classify(targets)
    yaml = YAML()
    yaml.width = 4096
    buffer = io.StringIO()
    option = "" if version == ANSIBLE_CORE_VERSION else f" --ansible-core-version {version}"
    buffer.write(f"# Generated by 'python -m bench.compat --write-selection{option}' from ansible-core {version}'s\n"
                 "# test/integration/targets: the targets that apply to Debian test hosts without containers,\n"
                 "# by group, and every other target with the reason it is left out. Edit bench/compat/selection.py,\n"
                 "# not this file.\n")
    yaml.dump({"ansible_core": version, "groups": groups, "excluded": excluded}, buffer)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(buffer.getvalue())
    tmp.replace(path)
    return path


def load_selection(path: Path = SELECTION_FILE) -> dict[str, list[str]]:
    """group -> target names, as the data file lists them."""
    if not path.exists():
        raise SystemExit(f"{path} does not exist: write it with 'python -m bench.compat --write-selection "
                         "--ansible-core-version X.Y.Z'")
    data = YAML(typ="safe").load(path.read_text())
    return {group: list(names or []) for group, names in data["groups"].items()}
