"""The ``config`` lookup: the value of a setting as this run resolves it (file, environment, default).

A setting is named as ours (``forks``) or as Ansible names it (``DEFAULT_FORKS``, ``HOST_KEY_CHECKING``): an
Ansible name is matched through the ``ANSIBLE_*`` environment variable both programs read for it. Plugin
settings (``plugin_type``/``plugin_name``) do not exist here: there are no plugins to configure.
"""

from __future__ import annotations

import logging
from typing import Any

from runner.config import SETTINGS, Config, Setting, load_config
from runner.errors import UserError
from runner.templating.errors import TemplateError
from runner.templating.lookups.base import LookupContext

_ON_MISSING = ("error", "warn", "skip")
_log = logging.getLogger("provisioning.lookup")


def find_setting(term: str) -> Setting | None:
    """Our setting ``term`` names, by our name or Ansible's (with or without its ``DEFAULT_`` prefix)."""
    lowered = term.lower()
    upper = term.upper()
    ansible_variables = {f"ANSIBLE_{upper}", f"ANSIBLE_{upper.removeprefix('DEFAULT_')}"}
    for setting in SETTINGS:
        if setting.name in (lowered, lowered.removeprefix("default_")):
            return setting
    return next((setting for setting in SETTINGS if ansible_variables & set(setting.ansible_env)), None)


def config_lookup(terms: list[Any], context: LookupContext, on_missing: str = "error", show_origin: bool = False,
                  plugin_type: str | None = None, plugin_name: str | None = None) -> list[Any]:
    if on_missing not in _ON_MISSING:
        raise TemplateError(f"lookup 'config': Invalid value '{on_missing}' for on_missing: "
                            f"must be one of {', '.join(_ON_MISSING)}")
    if plugin_type or plugin_name:
        if not (plugin_type and plugin_name):
            raise TemplateError("lookup 'config': Both plugin_type and plugin_name are required, "
                                "cannot use one without the other.")
        raise TemplateError(f"lookup 'config': Unable to load {plugin_type} plugin {plugin_name!r}: "
                            "plugins have no settings here")
    config = _current_config()
    values: list[Any] = []
    for term in terms:
        if not isinstance(term, str):
            raise TemplateError(f"lookup 'config': Invalid setting identifier, {term!r} is not a string")
        setting = find_setting(term)
        if setting is None:
            message = f"No config definition exists for {term!r}"
            if on_missing == "error":
                raise TemplateError(f"lookup 'config': {message}")
            if on_missing == "warn":
                _log.warning("lookup 'config': %s; skipping it", message)
            continue
        value = config[setting.name]
        values.append([value, str(config.origin(setting.name))] if show_origin else value)
    return values


def _current_config() -> Config:
    try:
        return load_config()
    except UserError as exc:  # the run itself loaded it; a file changed since is the user's to fix
        raise TemplateError(f"lookup 'config': {exc}") from None


LOOKUPS = {"config": config_lookup}
