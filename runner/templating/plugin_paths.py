"""Where a run's controller-side plugins come from: ``filter_plugins/``, ``test_plugins/`` and ``lookup_plugins/``
folders (configured, beside the playbook, in the roles the run uses) and the collections path for plugins named
``NS.COLL.NAME``.

Set once by the compiler before it compiles templates (the workers are forked afterwards and inherit it); a role
met later (an ``include_role`` compiled at run time) adds its folders then, as Ansible adds a role's plugins when
it loads the role.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

# The folders Ansible reads beside a playbook and in a role, by the kind of plugin they hold.
FILTER_AND_TEST_FOLDERS = ("filter_plugins", "test_plugins")
LOOKUP_FOLDER = "lookup_plugins"


@dataclass
class PluginPaths:
    filter_dirs: list[Path] = field(default_factory=list)  # filter_plugins/ and test_plugins/, later ones win
    lookup_dirs: list[Path] = field(default_factory=list)  # lookup_plugins/, first one wins
    collections_paths: tuple[Path, ...] = ()
    generation: int = 0  # changes whenever folders are added, so caches of resolved names know to forget

    def add_project_dir(self, directory: Path) -> list[Path]:
        """Add the plugin folders of a playbook's or role's directory; the new filter/test folders."""
        added = [directory / name for name in FILTER_AND_TEST_FOLDERS
                 if (directory / name).is_dir() and (directory / name) not in self.filter_dirs]
        self.filter_dirs += added
        lookups = directory / LOOKUP_FOLDER
        if lookups.is_dir() and lookups not in self.lookup_dirs:
            self.lookup_dirs.append(lookups)
            self.generation += 1
        return added


PLUGIN_PATHS = PluginPaths()


def configure_plugin_paths(*, filter_dirs: Iterable[Path] = (), collections_paths: Iterable[Path] = ()) -> None:
    """Start a run's plugin paths: the configured ``filter_plugins`` folders and the collections path."""
    PLUGIN_PATHS.filter_dirs = [Path(path) for path in filter_dirs]
    PLUGIN_PATHS.lookup_dirs = []
    PLUGIN_PATHS.collections_paths = tuple(Path(path) for path in collections_paths)
    PLUGIN_PATHS.generation += 1
