"""Which configuration file is used: the first found of $PROVISIONING_CONFIG, ./provisioning.cfg,
~/.provisioning.cfg and /etc/provisioning/provisioning.cfg."""

from __future__ import annotations

import stat
from collections.abc import Mapping
from pathlib import Path

from runner.config.values import expand_home
from runner.errors import OptionError

CONFIG_ENV = "PROVISIONING_CONFIG"
FILE_NAME = "provisioning.cfg"
SYSTEM_CONFIG = Path("/etc/provisioning") / FILE_NAME


def candidate_paths(env: Mapping[str, str], cwd: Path, home: str) -> list[Path]:
    """Where a configuration file is looked for, in order (the env path only when set)."""
    paths = []
    if env.get(CONFIG_ENV):
        paths.append(_from_env(env[CONFIG_ENV], cwd, home))
    paths += [cwd / FILE_NAME, Path(home) / f".{FILE_NAME}", SYSTEM_CONFIG]
    return paths


def find_config_file(env: Mapping[str, str], cwd: Path, home: str, warnings: list[str]) -> Path | None:
    """The file to read, or None when there is none.

    Unlike ansible, a ``PROVISIONING_CONFIG`` that names no file is an error rather than silently skipped: the
    user asked for that file. A ``./provisioning.cfg`` in a world-writable directory is skipped with a warning,
    as ansible does, since anyone could have put it there.
    """
    if env.get(CONFIG_ENV):
        chosen = _from_env(env[CONFIG_ENV], cwd, home)
        if not chosen.is_file():
            raise OptionError(f"{CONFIG_ENV} names {chosen}, which is not a file")
        return chosen
    local = cwd / FILE_NAME
    if local.is_file():
        if not _world_writable(cwd):
            return local.absolute()
        warnings.append(f"ignoring {local}: its directory is world-writable (set {CONFIG_ENV} to use it)")
    for path in (Path(home) / f".{FILE_NAME}", SYSTEM_CONFIG):
        if path.is_file():
            return path
    return None


def _from_env(value: str, cwd: Path, home: str) -> Path:
    path = cwd / expand_home(value, home)
    return path / FILE_NAME if path.is_dir() else path


def _world_writable(directory: Path) -> bool:
    try:
        return bool(directory.stat().st_mode & stat.S_IWOTH)
    except OSError:
        return False
