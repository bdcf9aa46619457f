"""Lookups that read what the templating layer cannot import: the run's inventory (``inventory_hostnames``)
and configuration (``config``). Importing this module registers them with the other lookups; the executor
package imports it, so every command that runs tasks has them.

``inventory_hostnames``, as Ansible's, reads the ``groups`` variable (the inventory as the task sees it,
``add_host`` and ``group_by`` included), not the inventory files. ``config`` gives a setting as this run
resolves it (file, environment, default), named as ours (``forks``) or as Ansible names it (``DEFAULT_FORKS``,
``HOST_KEY_CHECKING``): an Ansible name is matched through the ``ANSIBLE_*`` environment variable both programs
read for it. Plugin settings (``plugin_type``/``plugin_name``: a connection's, a shell's, a lookup's) and the
settings only ansible-core has are ansible-core's to answer: its own ``config`` lookup gives them, with the task's
variables, when ansible-core is installed on the controller.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from runner.ansible_api.core import INSTALL_HINT, installed
from runner.config import SETTINGS, Config, Setting, load_config
from runner.errors import UserError
from runner.inventory.inventory import Inventory
from runner.inventory.patterns import select, split_pattern
from runner.templating.errors import TemplateError
from runner.templating.lookups import register_lookups
from runner.templating.lookups.base import LookupContext
from runner.templating.lookups.plugin_lookups import ansible_core_lookup

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
        if not installed():
            raise TemplateError(f"lookup 'config': the settings of {plugin_type} plugin {plugin_name!r} are "
                                "ansible-core's", hint=INSTALL_HINT)
        return ansible_core_lookup("config")(terms, context, on_missing=on_missing, show_origin=show_origin,
                                             plugin_type=plugin_type, plugin_name=plugin_name)
    config = _current_config()
    values: list[Any] = []
    for term in terms:
        if not isinstance(term, str):
            raise TemplateError(f"lookup 'config': Invalid setting identifier, {term!r} is not a string")
        setting = find_setting(term)
        if setting is None and installed():  # one of ansible-core's own settings, or none of its either
            values += ansible_core_lookup("config")([term], context, on_missing=on_missing, show_origin=show_origin)
            continue
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


def inventory_hostnames(terms: list[Any], context: LookupContext) -> list[str]:
    groups = context.variable("groups", {})
    if not isinstance(groups, Mapping):
        raise TemplateError("lookup 'inventory_hostnames': the 'groups' variable is not a dictionary")
    inventory = Inventory()
    with inventory.batch():
        for group, names in groups.items():
            inventory.add_group(str(group))
            for name in names or ():
                inventory.add_host(str(name), [str(group)])
    try:
        selected = select(inventory, split_pattern([str(term) for term in terms]))
    except UserError as exc:
        raise TemplateError(f"lookup 'inventory_hostnames': {exc.message}") from None
    return [host.name for host in selected if not host.implicit]


register_lookups({"inventory_hostnames": inventory_hostnames, "config": config_lookup})
