"""Loading what every command starts from: the configuration, the inventory, the library paths."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from runner.ansible_api.strategy_plugins import resolve_strategy
from runner.ansible_api.vars_plugins import VarsPluginSetup
from runner.callbacks.colors import paint, use_color
from runner.callbacks.log_file import LogFile, open_run_log, run_log
from runner.cli.plugin_filters import module_rejectlist
from runner.config import Config, load_config
from runner.config.model import DEFAULT
from runner.config.support import unsupported_settings
from runner.errors import UserError
from runner.inventory import Inventory, load_inventory
from runner.inventory.ansible_plugin_setup import AnsiblePluginSetup


@dataclass
class Project:
    config: Config
    inventory: Inventory
    library: list[Path] = field(default_factory=list)
    collections_path: list[Path] = field(default_factory=list)
    roles_path: list[Path] = field(default_factory=list)
    filter_plugins: list[Path] = field(default_factory=list)
    log: LogFile | None = None  # log_path, open for the command
    module_rejectlist: tuple[str, ...] = ()  # plugin_filters_cfg's, sorted
    # reads the inventory's sources again, as they were read for the command (meta: refresh_inventory)
    reload_inventory: Callable[[], Inventory] | None = None


def resolve_inventory_sources(config: Config) -> list[str]:
    """The configured inventory sources; the embedded default (``inventories/local``) starts local test hosts."""
    from runner.testenv import ensure_default_env, is_default_inventory

    sources = []
    for source in config.inventory:
        if is_default_inventory(source):
            sources.append(str(ensure_default_env()))
        elif str(source) in missing_default_inventory(config):
            continue
        else:
            sources.append(str(source))
    return sources


def missing_default_inventory(config: Config) -> list[str]:
    """The default inventory's sources (``/etc/provisioning/hosts``) when no one set the inventory and they do not
    exist. As in Ansible, such a run has the implicit localhost alone; a source the user names (``-i``, the
    configuration) that is missing stays an error (``unparsed_is_failed``)."""
    if config.origin("inventory") != DEFAULT:
        return []
    return [str(source) for source in config.inventory if not Path(source).exists()]


def _existing(paths: Any) -> list[Path]:
    return [Path(p) for p in (paths or []) if Path(p).is_dir()]


def load_hosts(config: Config, playbook_dir: Path, *, configured: bool = True, verbosity: int = 0,
               flush_cache: bool = False) -> Inventory:
    """The inventory of the configured sources; without them (``configured=False``), only what a run adds
    (implicit localhost, hosts added while it runs). Its notes are shown from -vvv; ``flush_cache``: caching
    inventory plugins refresh."""
    sources = resolve_inventory_sources(config) if configured else []
    if configured and missing_default_inventory(config) and config.inventory_unparsed_warning:
        warn("No inventory was parsed, only implicit localhost is available "
             f"(the default inventory {', '.join(missing_default_inventory(config))} does not exist)")
    inventory = load_sources(sources, config, playbook_dir,
                             ansible_plugins=ansible_plugin_setup(config, flush_cache))
    if verbosity >= 3:
        for note in inventory.notes:
            sys.stdout.write(note + "\n")
    for warning in inventory.warnings:
        warn(warning)
    return inventory


def inventory_reloader(config: Config, playbook_dir: Path, *, configured: bool, verbosity: int
                       ) -> Callable[[], Inventory]:
    """Reads the same sources again, past any inventory cache, as ansible-core's refresh_inventory does."""
    return partial(load_hosts, config, playbook_dir, configured=configured, verbosity=verbosity, flush_cache=True)


def load_sources(sources: Sequence[str | Path], config: Config, playbook_dir: Path | None = None, *,
                 extra_vars: dict[str, Any] | None = None,
                 ansible_plugins: AnsiblePluginSetup | None = None) -> Inventory:
    """The inventory of ``sources``, where a YAML file may also be an infra file or an ``aws_ec2`` plugin
    configuration; ``extra_vars`` for inventory plugins that ask for them; ``ansible_plugins`` where plugins
    written against Ansible's API are found.

    A source that cannot be read is a warning in ``inventory.warnings`` unless ``any_unparsed_is_failed``; when
    none of them can be, the command stops (``unparsed_is_failed``) or warns that only localhost is left, as
    Ansible's settings of those names say."""
    inventory = load_inventory(sources, playbook_dir=playbook_dir, yaml_readers=[_provisioning_source],
                               extra_vars=extra_vars, invalid_group_chars=config.transform_invalid_group_chars,
                               hash_merge=config.hash_behaviour == "merge",
                               any_unparsed_is_failed=config.any_unparsed_is_failed,
                               ansible_plugins=ansible_plugins)
    if sources and not inventory.parsed:
        if config.unparsed_is_failed:
            raise UserError("No inventory was parsed, please check your configuration and options (unparsed_is_"
                            "failed is set)" + "".join(f"\n  {warning}" for warning in inventory.warnings))
        if config.inventory_unparsed_warning:
            inventory.warnings.append("No inventory was parsed, only implicit localhost is available")
    return inventory


def ansible_plugin_setup(config: Config, flush_cache: bool = False) -> AnsiblePluginSetup:
    """Where the configuration says inventory plugins written against Ansible's API are found."""
    collections_paths = tuple(Path(path) for path in config.collections_path or [])
    vars_plugins = VarsPluginSetup(plugin_dirs=tuple(Path(path).expanduser() for path in config.vars_plugins or []),
                                   enabled=tuple(config.vars_enabled or ()), collections_paths=collections_paths)
    return AnsiblePluginSetup(plugin_dirs=tuple(Path(path) for path in config.inventory_plugins or []),
                              collections_paths=collections_paths, flush_cache=flush_cache, vars_plugins=vars_plugins)


def _provisioning_source(inventory: Inventory, path: Path, data: Any) -> bool:
    # Imported when a YAML source is read, not with the command: the infra models and the providers (pydantic
    # among them) are not loaded for an INI inventory.
    from runner.providers.infra_inventory import add_provisioning_source

    return add_provisioning_source(inventory, path, data)


def warn(message: str) -> None:
    """``[WARNING]: ...`` on stderr, and in the command's log when it has one."""
    text = f"[WARNING]: {message}"
    sys.stderr.write(text + "\n")
    log = run_log()
    if log is not None:
        log.warning(text)


def deprecated(text: str) -> None:
    """``[DEPRECATION WARNING]: ...`` on stderr (and in the command's log), after ansible-core's hint, once, on how
    to turn them off."""
    from runner.callbacks.terminal import DEPRECATIONS_HINT

    if text in _deprecated:
        return
    if not _deprecated:
        warn(DEPRECATIONS_HINT)
    _deprecated.add(text)
    sys.stderr.write(f"[DEPRECATION WARNING]: {text}\n\n")
    log = run_log()
    if log is not None:
        log.info(f"[DEPRECATION WARNING]: {text}")


_deprecated: set[str] = set()


def collection_search_path(config: Config) -> list[Path]:
    """The configured collections path, then (``collections_scan_sys_path``) the Python path's folders, as
    ansible-core searches them: collections pip installed beside provisioning (the ``ansible`` package's) count."""
    from runner.ansible_api.collections import collection_search_path as search_path

    configured = [Path(entry) for entry in config.collections_path or []]
    if config.collections_scan_sys_path:
        configured += [Path(entry) for entry in sys.path if entry]
    return search_path(configured)


def _name_config_file(config: Config, log: LogFile | None) -> None:
    """ansible-core's first ``-v`` line, on stdout with the rest of its display, and in the run log."""
    text = f"Using {config.path} as config file" if config.path else "No config file found; using defaults"
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    if log is not None:
        log.info(text)


def load_project(overrides: dict[str, Any], playbook_dir: Path, *, need_inventory: bool = True,
                 options: dict[str, Any] | None = None) -> Project:
    """Configuration, the vault passwords (``options`` are the command line's), then the inventory (not loaded,
    and no test host started, when only compiling).

    The log (``log_path``) opens first, so that what follows — the configuration's warnings, a setting that is
    not supported, the run — is in it; ``runner.cli.common.report_errors`` closes it when the command ends.
    """
    from runner.cli.vault_options import install_vault_secrets
    from runner.secrets.censor import reveal_secret_diffs

    config = load_config(overrides)
    log = open_run_log(config.log_path, warn, str(config.origin("log_path")))
    if log is not None:
        from runner.cli.verbosity import trace_into_run_log

        trace_into_run_log(int((options or {}).get("verbosity") or 0), config.log_verbosity)
    if int((options or {}).get("verbosity") or 0) >= 1:
        _name_config_file(config, log)
    from runner.templating import UNTRUSTED_TEMPLATES

    UNTRUSTED_TEMPLATES.behavior = config.untrusted_template_behavior  # before workers fork, which inherit it
    UNTRUSTED_TEMPLATES.allow_broken_conditionals = config.allow_broken_conditionals
    from runner.util.strict_utf8 import STRICT_UTF8

    STRICT_UTF8.enabled = bool(config.module_strict_utf8_response)
    from runner.templating.deprecations import DEPRECATIONS

    DEPRECATIONS.enabled = bool(config.deprecation_warnings)
    _set_up_debug_log(config)
    from runner.cli.options import unused_option_warnings

    for warning in [*config.warnings, *unsupported_settings(config), *unused_option_warnings(options or {})]:
        warn(warning)
    if config.deprecation_warnings:
        for text in config.deprecations:
            deprecated(text)
    install_vault_secrets(config, options or {})
    reveal_secret_diffs(config.diff_secret_sources)
    configured_strategy(config)  # a strategy plugin that cannot run stops any command, as in Ansible
    rejected = tuple(sorted(module_rejectlist(config, warn)))  # rejecting stat stops any command, as in Ansible
    verbosity = int((options or {}).get("verbosity") or 0)
    inventory = load_hosts(config, playbook_dir, configured=need_inventory, verbosity=verbosity,
                           flush_cache=bool((options or {}).get("flush_cache")))
    return Project(config, inventory, library=_existing(config.library),
                   collections_path=collection_search_path(config),
                   # present or not: a role not found names each, as ansible-core's message does
                   roles_path=[Path(entry) for entry in config.roles_path or []],
                   filter_plugins=_existing(config.filter_plugins), log=log, module_rejectlist=rejected,
                   reload_inventory=inventory_reloader(config, playbook_dir, configured=need_inventory,
                                                       verbosity=verbosity))


def _set_up_debug_log(config: Config) -> None:
    """Ansible's debug log (``debug``, ``ANSIBLE_DEBUG``), set before the workers fork, which inherit it; its
    lines in ansible-core's debug colour where the output is coloured."""
    from runner.util.debug_log import DEBUG_LOG

    color = use_color(sys.stdout, bool(config.nocolor), bool(config.force_color))
    DEBUG_LOG.configure(bool(config.debug), paint=partial(paint, state="debug", enabled=color))


def configured_strategy(config: Config) -> str:
    """The builtin strategy the configured one runs as (a collection's strategy plugin may stand for one)."""
    return resolve_strategy(config.strategy, tuple(Path(path) for path in config.collections_path or []))


def play_defaults(config: Config) -> dict[str, Any]:
    """The compiler's defaults for play keywords that the configuration sets (``CompileOptions`` fields)."""
    return {"gather_facts": config.gathering != "explicit", "gather_smart": config.gathering == "smart",
            "strategy": configured_strategy(config),
            "any_errors_fatal": config.any_errors_fatal,
            "validate_action_group_metadata": config.validate_action_group_metadata}
