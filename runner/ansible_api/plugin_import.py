"""Importing controller-side plugin files (filter, test, lookup plugins) as Ansible imports them.

A collection's plugin is imported under its real name, ``ansible_collections.NS.COLL.plugins.KIND.NAME``, through
ansible-core's own collection finder when ansible-core is importable: its relative imports (``from
..module_utils.x import y``) and ``ansible_collections.*`` imports then work as under ansible-playbook. Any other
file (a ``filter_plugins/`` folder's, or a collection's without ansible-core) is imported from its path under a
private name. A file that imports ``ansible`` without ansible-core installed is an error saying what to install.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from runner.ansible_api.core import INSTALL_HINT, installed
from runner.errors import SourcePosition, UserError


class PluginImportError(UserError):
    """A plugin file that cannot be imported; ``reason`` says why in the words of the plugin's own error (``boom``),
    or the whole message when there is none of its own to say (ansible-core missing)."""

    reason = ""


_finder_paths: tuple[str, ...] | None = None


def use_collections_paths(collections_paths: Sequence[Path]) -> bool:
    """Make ``ansible_collections.*`` importable from ``collections_paths`` with ansible-core's finder (once per
    set of paths); False without ansible-core, whose finder is the one that knows collections' package layout."""
    global _finder_paths
    if not installed():
        return False
    paths = tuple(str(path) for path in collections_paths)
    if paths != _finder_paths:
        from ansible.utils.collection_loader._collection_finder import _AnsibleCollectionFinder

        # The packages imported through the former paths' finder keep those paths (``ansible_collections`` and
        # its namespaces): forgotten, they are found again through the new ones. Plugins already loaded keep theirs.
        for module in [name for name in sys.modules if name.split(".")[0] == "ansible_collections"]:
            del sys.modules[module]
        _AnsibleCollectionFinder(paths=list(paths), scan_sys_paths=False)._install()
        _finder_paths = paths
    return True


def error_line(path: Path, exc: BaseException) -> int | None:
    if isinstance(exc, SyntaxError) and exc.filename == str(path):
        return exc.lineno
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == str(path)]
    return frames[-1].lineno if frames else None


def _failure(kind: str, path: Path, exc: BaseException) -> PluginImportError:
    position = SourcePosition(str(path), error_line(path, exc))
    missing = exc.name or "" if isinstance(exc, ModuleNotFoundError) else ""
    if missing.split(".")[0] in ("ansible", "ansible_collections") and not installed():
        error = PluginImportError(f"the {kind} plugin {path} is written against Ansible's Python API (it imports "
                                  f"{missing}), which needs ansible-core on the controller", position,
                                  hint=INSTALL_HINT)
        error.reason = error.message
        return error
    error = PluginImportError(f"cannot load {kind} plugin {path}: {type(exc).__name__}: {exc}", position)
    error.reason = str(exc) or type(exc).__name__
    return error


def _import_by_name(name: str) -> ModuleType:
    return importlib.import_module(name)


def _local_name(kind: str, path: Path) -> str:
    """The module name of a plugin folder's file, as Ansible names it: ``ansible.plugins.lookup.NAME`` for a
    lookup or an action (one per name), ``ansible.plugins.filter.FILE_DIGITS`` for filter and test files, whose
    files of one name in several folders all load."""
    if kind in ("lookup", "action"):
        return f"ansible.plugins.{kind}.{path.stem}"
    return f"ansible.plugins.{kind}.{path.stem}_{int(hashlib.sha1(str(path).encode()).hexdigest()[:12], 16)}"


def _import_by_path(kind: str, path: Path) -> ModuleType:
    name = _local_name(kind, path)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


_imported: dict[tuple[Path, float], ModuleType] = {}


def imported_plugin_files() -> set[Path]:
    """Every plugin file this process imported (filters, tests, lookups; a collection's or a project's): what a
    compiled plan depends on beyond its playbooks (runner.compiler.plan_cache)."""
    return {path for path, _ in _imported}


def import_plugin(kind: str, path: Path, collection_name: str | None = None) -> ModuleType:
    """The module of plugin file ``path`` (imported once per file and modification time). ``collection_name`` is
    its ``ansible_collections.NS.COLL.plugins.KIND.NAME`` name when it belongs to a collection."""
    path = path.resolve()
    key = (path, path.stat().st_mtime)
    module = _imported.get(key)
    if module is not None:
        return module
    try:
        if collection_name is not None and installed():
            module = _import_by_name(collection_name)
        else:
            module = _import_by_path(kind, path)
    except Exception as exc:
        raise _failure(kind, path, exc) from None
    _imported[key] = module
    return module
