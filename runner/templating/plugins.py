"""Filter and test plugins (``filter_plugins/`` folders, collections' ``plugins/filter`` and ``plugins/test``),
loaded as Ansible loads them.

Every ``*.py`` file (names starting with ``_`` excepted) may define a class ``FilterModule`` whose ``filters()``
returns ``{name: function}``, and a class ``TestModule`` whose ``tests()`` does the same for tests. Folders are
read in order; a later folder's name replaces an earlier one's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from runner.ansible_api.collections import collection_dir
from runner.ansible_api.plugin_import import (
    PluginImportError,
    error_line,
    import_plugin,
    use_collections_paths,
)
from runner.errors import SourcePosition, UserError

Plugins = dict[str, Callable[..., Any]]


class PluginError(UserError):
    """A filter plugin file that cannot be imported or does not follow the FilterModule/TestModule contract."""


def shipped_plugin_dir() -> Path:
    """The project's own ``filter_plugins`` package, loaded before any user folder."""
    import filter_plugins

    return Path(filter_plugins.__file__).parent


def _import(path: Path, kind: str, collection_name: str | None = None) -> ModuleType:
    try:
        return import_plugin(kind, path, collection_name)
    except PluginImportError as exc:
        raise PluginError(exc.message, exc.position, hint=exc.hint) from None


def _collect(module: ModuleType, path: Path, class_name: str, method: str) -> Plugins:
    plugin_class = getattr(module, class_name, None)
    if plugin_class is None:
        return {}
    try:
        found = getattr(plugin_class(), method)()
    except Exception as exc:
        raise PluginError(f"{path}: {class_name}().{method}() failed: {type(exc).__name__}: {exc}",
                          SourcePosition(str(path), error_line(path, exc))) from None
    if not isinstance(found, dict) or not all(isinstance(key, str) and callable(value)
                                              for key, value in found.items()):
        raise PluginError(f"{path}: {class_name}().{method}() must return a dict of names to functions",
                          SourcePosition(str(path)))
    return found


def load_plugin_file(path: Path, collection_name: str | None = None, *,
                     kind: str = "filter") -> tuple[Plugins, Plugins]:
    """The filters and tests of one plugin file; ``collection_name`` is its module name in a collection."""
    module = _import(path, kind, collection_name)
    return _collect(module, path, "FilterModule", "filters"), _collect(module, path, "TestModule", "tests")


def load_plugins(folders: Iterable[Path]) -> tuple[Plugins, Plugins]:
    """Filters and tests from every plugin file in ``folders`` (missing folders are skipped)."""
    filters: Plugins = {}
    tests: Plugins = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith("_"):
                continue
            kind = "test" if folder.name == "test_plugins" else "filter"
            file_filters, file_tests = load_plugin_file(path, kind=kind)
            filters.update(file_filters)
            tests.update(file_tests)
    return filters, tests


def load_collection_plugins(collection: str, kind: str, collections_paths: Sequence[Path]) -> Plugins:
    """The filters (``kind`` ``filter``) or tests (``test``) of ``collection`` (``NS.COLL``) by their short names,
    from every file of its ``plugins/filter`` or ``plugins/test`` folder, as Ansible finds them."""
    base = collection_dir(collection, collections_paths)
    folder = base / "plugins" / kind if base is not None else None
    if folder is None or not folder.is_dir():
        return {}
    use_collections_paths(collections_paths)  # so the files' relative and ansible_collections imports work
    found: Plugins = {}
    for path in sorted(folder.glob("*.py")):
        if path.name.startswith("_"):
            continue
        filters, tests = load_plugin_file(path, f"ansible_collections.{collection}.plugins.{kind}.{path.stem}",
                                          kind=kind)
        found.update(filters if kind == "filter" else tests)
    return found
