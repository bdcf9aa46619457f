"""Loading what every command starts from: the configuration, the inventory, the library paths."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.config import Config, load_config
from runner.inventory import Inventory, load_inventory


@dataclass
class Project:
    config: Config
    inventory: Inventory
    library: list[Path] = field(default_factory=list)
    roles_path: list[Path] = field(default_factory=list)
    filter_plugins: list[Path] = field(default_factory=list)


def resolve_inventory_sources(config: Config) -> list[str]:
    """The configured inventory sources; the embedded default (``inventories/local``) starts local test hosts."""
    from runner.testenv import ensure_default_env, is_default_inventory

    sources = []
    for source in config.inventory:
        if is_default_inventory(source):
            sources.append(str(ensure_default_env()))
        else:
            sources.append(str(source))
    return sources


def _existing(paths: Any) -> list[Path]:
    return [Path(p) for p in (paths or []) if Path(p).is_dir()]


def load_hosts(config: Config, playbook_dir: Path, *, configured: bool = True) -> Inventory:
    """The inventory of the configured sources; without them (``configured=False``), only what a run adds
    (implicit localhost, hosts added while it runs)."""
    sources = resolve_inventory_sources(config) if configured else []
    return load_inventory(sources, playbook_dir=playbook_dir)


def load_project(overrides: dict[str, Any], playbook_dir: Path, *, need_inventory: bool = True,
                 options: dict[str, Any] | None = None) -> Project:
    """Configuration, the vault passwords (``options`` are the command line's), then the inventory (not loaded,
    and no test host started, when only compiling)."""
    from runner.cli.vault_options import install_vault_secrets

    config = load_config(overrides)
    for warning in config.warnings:
        import sys

        sys.stderr.write(f"[WARNING]: {warning}\n")
    install_vault_secrets(config, options or {})
    inventory = load_hosts(config, playbook_dir, configured=need_inventory)
    return Project(config, inventory, library=_existing(config.library), roles_path=_existing(config.roles_path),
                   filter_plugins=_existing(config.filter_plugins))
