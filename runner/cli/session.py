"""Loading what every command starts from: the configuration, the inventory, the library paths."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.config import Config, load_config
from runner.inventory import Inventory, load_inventory


@dataclass
class Project:
    config: Config
    inventory: Inventory
    library: list[Path]


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


def load_project(overrides: dict[str, Any], playbook_dir: Path) -> Project:
    config = load_config(overrides)
    inventory = load_inventory(resolve_inventory_sources(config), playbook_dir=playbook_dir)
    library = [Path(p) for p in config.library if Path(p).is_dir()]
    return Project(config, inventory, library)
