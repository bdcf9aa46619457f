"""The embedded default inventory: ``inventories/local`` names the local test hosts of the env ``default``.

The directory holds one YAML file in Ansible's inventory-plugin style (``plugin: provisioning.testenv``). A CLI
that meets it as an inventory source calls ``ensure_default_env`` and reads the inventory that env wrote; so the
README's main job runs with no set-up but root.
"""

from __future__ import annotations

from pathlib import Path

PLUGIN = "provisioning.testenv"
DEFAULT_ENV = "default"
DEFAULT_COUNT = 3
_YAML_SUFFIXES = (".yml", ".yaml")


def ensure_default_env(count: int = DEFAULT_COUNT) -> Path:
    """Bring the env ``default`` up unless ``count`` of its hosts already run; return its inventory path."""
    from runner.testenv.env import TestEnv  # loaded only for the default inventory: every command asks about it

    env = TestEnv(DEFAULT_ENV, count=count)
    if len(env.hosts()) < count or not env.inventory_path.exists():
        env.up()
    return env.inventory_path


def _is_plugin_file(path: Path) -> bool:
    if path.suffix not in _YAML_SUFFIXES or not path.is_file():
        return False
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return False
    return any(line.split("#")[0].strip() in (f"plugin: {PLUGIN}", f'plugin: "{PLUGIN}"') for line in lines)


def is_default_inventory(source: str | Path) -> bool:
    """True for a ``plugin: provisioning.testenv`` file, or a directory (``inventories/local``) holding one."""
    path = Path(source)
    if path.is_dir():
        return any(_is_plugin_file(child) for child in path.iterdir())
    return _is_plugin_file(path)
