"""``plugin_filters_cfg``: the modules a site forbids, read as ansible-core reads its plugin filter file.

The file is YAML with ``filter_version: '1.0'`` and ``module_rejectlist``, a list of module names (a module and
an action plugin of one name are one name to users, so both are rejected). A rejected module cannot be found: a
task naming it fails to compile as an unknown module would. Unset, ``/etc/ansible/plugin_filters.yml`` is read if
it exists. As in ansible-core, a file that is missing (when set), unparsable, without ``filter_version``, of
another version or whose list is not a list is a warning and filters nothing; rejecting ``stat``, which Ansible
needs to run most modules, is an error before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml

from runner.config.model import Config
from runner.errors import OptionError

SYSTEM_FILTERS = Path("/etc/ansible/plugin_filters.yml")


def module_rejectlist(config: Config, warn: Callable[[str], None]) -> frozenset[str]:
    """The module names the configured plugin filter file rejects (empty when there is none)."""
    configured = config.plugin_filters_cfg
    path = Path(configured) if configured else SYSTEM_FILTERS
    if not path.exists():
        if configured:
            warn(f"The plugin filter file, {path} does not exist. Skipping.")
        return frozenset()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        warn(f"The plugin filter file, {path} was not parsable. Skipping: {exc}")
        return frozenset()
    if not isinstance(data, dict) or "filter_version" not in data:
        warn(f"The plugin filter file, {path} was invalid. Skipping.")
        return frozenset()
    if str(data["filter_version"]).strip() != "1.0":
        warn(f"The plugin filter file, {path} was a version not recognized by this version of Ansible. Skipping.")
        return frozenset()
    names = data.get("module_rejectlist")
    if not isinstance(names, list):  # ``module_rejectlist:`` alone is null: ansible-core says the same of it
        warn(f"Unable to parse the plugin filter file {path} as module_rejectlist is not a list. Skipping.")
        return frozenset()
    rejected = frozenset(str(name) for name in names)
    if "stat" in rejected:
        raise OptionError(f"The stat module was specified in the module reject list file, {path}, but Ansible will "
                          "not function without the stat module.  Please remove stat from the reject list.")
    return rejected
