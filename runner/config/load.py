"""Layering the configuration: defaults, then the file, then the environment, then the command line."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.ansible_api.config_deprecations import config_deprecations
from runner.ansible_api.core import installed_ansible_core
from runner.config.file import read_config_file
from runner.config.ini import read_ini
from runner.config.locate import ANSIBLE, find_config_file
from runner.config.model import DEFAULT, Config, Origin
from runner.config.settings import BY_NAME, SETTINGS, Setting
from runner.config.values import ValueContext, convert
from runner.errors import OptionError, SourcePosition


def load_config(overrides: Mapping[str, Any] | None = None, *, env: Mapping[str, str] | None = None,
                cwd: Path | None = None) -> Config:
    """The configuration as the user set it.

    Precedence, lowest first: the default, the file found by ``find_config_file``, Ansible's environment
    variable (``ANSIBLE_FORKS``), ours (``PROVISIONING_FORKS``), and ``overrides`` from the command line, keyed
    by setting name, where None means "not given". ``env`` and ``cwd`` default to the process's own.
    """
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd.absolute()
    home = env.get("HOME") or str(Path.home())
    here = ValueContext(cwd, home)
    warnings: list[str] = []

    defaults = {setting.name: convert(setting, setting.default, here) for setting in SETTINGS}
    values: dict[str, tuple[Any, Origin]] = {name: (value, DEFAULT) for name, value in defaults.items()}

    located = find_config_file(env, cwd, home, warnings)
    path = located[0] if located else None
    ansible_cfg_keys: set[tuple[str, str]] = set()
    if located is not None:
        path, search = located
        if search is ANSIBLE:
            ansible_cfg_keys = {(entry.section, entry.key) for entry in read_ini(path).entries}
        in_file = ValueContext(path.parent.absolute(), home)
        # An ansible.cfg holds Ansible's settings, many of which provisioning has no use for: warnings, not errors.
        unknown = warnings if search is ANSIBLE else None
        for name, found in read_config_file(path, unknown).items():
            value = _convert(BY_NAME[name], found.raw, in_file, f"'{name}'", found.position)
            values[name] = (value, Origin("file", f"{found.position.path}:{found.position.line}", found.position))

    for setting in SETTINGS:
        variable = next((name for name in setting.env_names if name in env), None)
        if variable is not None:
            hint = f"set {setting.env} to override it" if variable != setting.env else None
            value = _convert(setting, env[variable], here, f"environment variable {variable}", hint=hint)
            values[setting.name] = (value, Origin("env", variable))

    for name, raw in (overrides or {}).items():
        if raw is None:
            continue
        if name not in BY_NAME:
            raise ValueError(f"override for unknown setting {name!r}")  # a caller's bug, not a user's mistake
        value = _convert(BY_NAME[name], raw, here, f"{name} on the command line")
        values[name] = (value, Origin("cli", name))

    # ansible-core's own settings deprecated in its definitions, as it reports them when a run starts
    deprecations = config_deprecations(ansible_cfg_keys, env) if installed_ansible_core() else []
    return Config(values, defaults, path, warnings, deprecations)


def _convert(setting: Setting, raw: Any, context: ValueContext, source: str,
             position: SourcePosition | None = None, *, hint: str | None = None) -> Any:
    try:
        return convert(setting, raw, context)
    except ValueError as exc:
        raise OptionError(f"bad value for {source}: {exc}", position, hint=hint) from None
