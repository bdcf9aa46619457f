"""Roles installed in a roles directory: putting one in place, reading what is there, taking one away.

A role is unpacked into a temporary directory beside its target and moved into place only when unpacking
succeeded, so a refused or broken archive leaves the target as it was. What was installed is recorded, as
Ansible does, in ``meta/.galaxy_install_info`` (install date and version), with the source and digest added.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from runner.errors import UserError
from runner.galaxy.archive import INSTALL_INFO
from runner.galaxy.errors import GalaxyError
from runner.galaxy.extract import extract_archive
from runner.galaxy.yamltext import to_yaml
from runner.loader.yaml import load_yaml_file


@dataclass(frozen=True)
class InstalledRole:
    name: str
    path: Path
    version: str | None = None
    source: str | None = None
    digest: str | None = None


def check_role_name(name: str) -> str:
    if not name or name in (".", "..") or "/" in name or "\\" in name or name.startswith("."):
        raise GalaxyError(f"'{name}' cannot be a role's directory name")
    return name


def install_info_path(role_dir: Path) -> Path:
    return role_dir / "meta" / INSTALL_INFO


def read_installed(role_dir: Path) -> InstalledRole:
    """What ``role_dir`` holds; version, source and digest are None for a role not installed by us."""
    info_path = install_info_path(role_dir)
    data: object = None
    if info_path.is_file():
        try:
            data = load_yaml_file(info_path)
        except UserError:
            data = None
    info = data if isinstance(data, dict) else {}
    return InstalledRole(role_dir.name, role_dir, _text(info.get("version")), _text(info.get("source")),
                         _text(info.get("digest")))


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def install_archive(archive: Path, roles_dir: Path, role: InstalledRole, max_size: int) -> Path:
    """Unpack ``archive`` as ``roles_dir/<role.name>``, replacing what is there only once unpacking succeeded."""
    name = check_role_name(role.name)
    roles_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.installing.", dir=roles_dir))
    try:
        unpacked = staging / name
        extract_archive(archive, unpacked, max_size, role.source)
        _write_info(unpacked, role)
        target = roles_dir / name
        if target.is_symlink() or target.is_file():
            raise GalaxyError(f"{target} exists and is not a role directory: remove it first")
        if target.exists():
            os.rename(target, staging / f"{name}.replaced")
        os.rename(unpacked, target)
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _write_info(role_dir: Path, role: InstalledRole) -> None:
    info = {"install_date": datetime.now(UTC).strftime("%c"), "version": role.version or "",
            "source": role.source, "digest": role.digest}
    path = install_info_path(role_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_yaml(info), encoding="utf-8")


def installed_roles(roles_dir: Path) -> list[InstalledRole]:
    """The roles in one directory, by name."""
    if not roles_dir.is_dir():
        return []
    return [read_installed(child) for child in sorted(roles_dir.iterdir())
            if child.is_dir() and not child.name.startswith(".")]


def remove_role(name: str, roles_paths: list[Path]) -> list[Path]:
    """Remove the role ``name`` from every roles directory holding it; the directories removed."""
    check_role_name(name)
    removed = []
    for roles_dir in roles_paths:
        target = roles_dir / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
            removed.append(target)
    return removed
