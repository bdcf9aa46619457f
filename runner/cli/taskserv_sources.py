"""Where a taskserv's updates come from, and what each source offers now.

- **apt**: a role whose defaults name ``<name>_packages`` installs Debian packages; ``apt-cache policy`` on the
  server (over ssh, as ``server ssh`` logs in, read-only) gives each package's installed and candidate version.
  The candidate is what the server's own package lists offer: they are as fresh as the role's last
  ``cache_valid_time`` refresh.
- **oci**: a role installed from a registry (its install record's ``source`` is ``oci://...``) is compared with
  the newest version tag of its repository.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.galaxy.context import GalaxyContext
from runner.galaxy.installed import read_installed
from runner.galaxy.reference import SCHEME, parse_reference
from runner.galaxy.store import RoleStore
from runner.loader.yaml import load_yaml_file
from runner.providers.ssh_login import ssh_argv
from runner.taskservs.catalog import Taskserv

SSH_TIMEOUT = 120.0
_POLICY_PACKAGE = re.compile(r"^(\S+):$")
_POLICY_FIELD = re.compile(r"^\s+(Installed|Candidate):\s*(\S+)")


@dataclass(frozen=True)
class PackageVersions:
    installed: str | None  # None: not installed
    candidate: str | None  # None: no source offers it


def role_packages(taskserv: Taskserv) -> list[str]:
    """The Debian packages the role's defaults install (``<name>_packages``), without version pins; none when
    the role has no such default or templates it."""
    defaults = taskserv.path / "defaults" / "main.yml"
    if not defaults.is_file():
        return []
    try:
        data = load_yaml_file(defaults)
    except UserError:
        return []
    value = data.get(f"{taskserv.name}_packages") if isinstance(data, Mapping) else None
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [re.split(r"[=<>]", str(name), maxsplit=1)[0] for name in names
            if isinstance(name, str) and "{{" not in name]


def apt_policy(login: Mapping[str, Any], packages: list[str]) -> dict[str, PackageVersions]:
    """Each package's installed and candidate version on the server ``login`` reaches."""
    if not packages:
        return {}
    command = ["env", "LC_ALL=C", "apt-cache", "policy", "--", *sorted(set(packages))]
    try:
        done = subprocess.run(ssh_argv(login, command), capture_output=True, text=True, timeout=SSH_TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise UserError(f"apt-cache policy on {login.get('ansible_host')} did not answer within "
                        f"{SSH_TIMEOUT:.0f} s") from None
    if done.returncode != 0:
        raise UserError(f"apt-cache policy on {login.get('ansible_host')} failed: "
                        f"{done.stderr.strip() or done.returncode}")
    return parse_policy(done.stdout)


def parse_policy(text: str) -> dict[str, PackageVersions]:
    """``apt-cache policy``'s output (LC_ALL=C) as installed and candidate versions per package."""
    found: dict[str, dict[str, str | None]] = {}
    current: dict[str, str | None] | None = None
    for line in text.splitlines():
        if match := _POLICY_PACKAGE.match(line):
            current = found.setdefault(match.group(1), {"Installed": None, "Candidate": None})
        elif current is not None and (match := _POLICY_FIELD.match(line)):
            current[match.group(1)] = None if match.group(2) == "(none)" else match.group(2)
    return {name: PackageVersions(fields["Installed"], fields["Candidate"]) for name, fields in found.items()}


def oci_source(role_dir: Path) -> tuple[str, str | None] | None:
    """(source, installed version) of a role installed from a registry; None for any other role."""
    installed = read_installed(role_dir)
    if installed.source is None or not installed.source.startswith(SCHEME):
        return None
    return installed.source, installed.version


def newest_tag(context: GalaxyContext, source: str) -> str | None:
    """The newest version tag of the role's repository (None when it has no version tags)."""
    versions = RoleStore(context).versions(parse_reference(source))
    return versions[-1] if versions else None
