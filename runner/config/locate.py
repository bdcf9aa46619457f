"""Which configuration file is used: the first found of $PROVISIONING_CONFIG, ./provisioning.cfg,
~/.provisioning.cfg and /etc/provisioning/provisioning.cfg; when there is none, Ansible's own, searched as Ansible
searches it: $ANSIBLE_CONFIG, ./ansible.cfg, ~/.ansible.cfg and /etc/ansible/ansible.cfg."""

from __future__ import annotations

import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from runner.config.values import expand_home
from runner.errors import OptionError


@dataclass(frozen=True)
class ConfigSearch:
    """One tool's search: the variable naming a file, the file's name, and its system-wide place."""

    env: str
    file_name: str
    system_dir: Path

    def candidates(self, env: Mapping[str, str], cwd: Path, home: str) -> list[Path]:
        paths = [_from_env(env[self.env], cwd, home, self.file_name)] if env.get(self.env) else []
        return [*paths, cwd / self.file_name, Path(home) / f".{self.file_name}", self.system_dir / self.file_name]


PROVISIONING = ConfigSearch("PROVISIONING_CONFIG", "provisioning.cfg", Path("/etc/provisioning"))
ANSIBLE = ConfigSearch("ANSIBLE_CONFIG", "ansible.cfg", Path("/etc/ansible"))
SEARCHES = (PROVISIONING, ANSIBLE)

CONFIG_ENV = PROVISIONING.env


def candidate_paths(env: Mapping[str, str], cwd: Path, home: str) -> list[Path]:
    """Where a configuration file is looked for, in order (the env paths only when set)."""
    return [path for search in SEARCHES for path in search.candidates(env, cwd, home)]


def find_config_file(env: Mapping[str, str], cwd: Path, home: str,
                     warnings: list[str]) -> tuple[Path, ConfigSearch] | None:
    """The file to read and the search that found it, or None when there is none.

    A ``PROVISIONING_CONFIG`` that names no file is an error: the user asked for that file. An ``ANSIBLE_CONFIG``
    that names none is skipped, as ansible-core skips it (setups written for Ansible rely on that), with a
    warning. A ``./provisioning.cfg`` or ``./ansible.cfg`` in a world-writable directory is skipped with a warning,
    as ansible does, since anyone could have put it there.
    """
    for search in SEARCHES:
        found = _search(search, env, cwd, home, warnings)
        if found is not None:
            return found, search
    return None


def _search(search: ConfigSearch, env: Mapping[str, str], cwd: Path, home: str, warnings: list[str]) -> Path | None:
    if env.get(search.env):
        chosen = _from_env(env[search.env], cwd, home, search.file_name)
        if chosen.is_file():
            return chosen
        if search is not ANSIBLE:
            raise OptionError(f"{search.env} names {chosen}, which is not a file")
        warnings.append(f"ignoring {search.env}: {chosen} is not a file (ansible-core skips it too)")
    local = cwd / search.file_name
    if local.is_file():
        if not _world_writable(cwd):
            return local.absolute()
        warnings.append(f"ignoring {local}: its directory is world-writable (set {search.env} to use it)")
    for path in (Path(home) / f".{search.file_name}", search.system_dir / search.file_name):
        if path.is_file():
            return path
    return None


def _from_env(value: str, cwd: Path, home: str, file_name: str) -> Path:
    path = cwd / expand_home(value, home)
    return path / file_name if path.is_dir() else path


def _world_writable(directory: Path) -> bool:
    try:
        return bool(directory.stat().st_mode & stat.S_IWOTH)
    except OSError:
        return False
