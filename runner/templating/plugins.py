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
    import_plugin,
    use_collections_paths,
)
from runner.errors import SourcePosition, UserError
from runner.templating.errors import TemplateError

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
    except Exception:
        return {}  # ansible-core skips such a file (saying so at -vvvv): its other files' plugins still load
    if not isinstance(found, dict) or not all(isinstance(key, str) for key in found):
        raise PluginError(f"{path}: {class_name}().{method}() must return a dict of names to functions",
                          SourcePosition(str(path)))
    kind = "filter" if method == "filters" else "test"
    return {name: _usable(kind, name, value) for name, value in found.items()}


def _usable(kind: str, name: str, value: Any) -> Callable[..., Any]:
    """The plugin as a template calls it. ansible-core reads each one's marker flags as it loads them; a plugin
    that fails there failed to load, which is said when a template uses it, not at load: one broken plugin does
    not take its file's others, or the run, with it. A value that is no function fails when called, as there."""
    try:
        getattr(value, "accept_args_markers", False)
        getattr(value, "accept_lazy_markers", False)
    except Exception as exc:
        return _fails(TemplateError(f"The {kind} plugin {name!r} failed to load: {exc}"))
    if not callable(value):
        return _fails(TemplateError(f"The {kind} plugin {name!r} failed: {type(value).__name__!r} object is not "
                                    "callable"))
    return value


def _fails(error: TemplateError) -> Callable[..., Any]:
    def failing(*args: Any, **kwargs: Any) -> Any:
        raise error

    return failing


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
