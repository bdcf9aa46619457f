"""``filter_plugins/`` folders, loaded as Ansible loads them.

Every ``*.py`` file (names starting with ``_`` excepted) may define a class ``FilterModule`` whose ``filters()``
returns ``{name: function}``, and a class ``TestModule`` whose ``tests()`` does the same for tests. Folders are
read in order; a later folder's name replaces an earlier one's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
import traceback
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from runner.errors import SourcePosition, UserError

Plugins = dict[str, Callable[..., Any]]


class PluginError(UserError):
    """A filter plugin file that cannot be imported or does not follow the FilterModule/TestModule contract."""


def shipped_plugin_dir() -> Path:
    """The project's own ``filter_plugins`` package, loaded before any user folder."""
    import filter_plugins

    return Path(filter_plugins.__file__).parent


def _error_line(path: Path, exc: BaseException) -> int | None:
    if isinstance(exc, SyntaxError) and exc.filename == str(path):
        return exc.lineno
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__) if frame.filename == str(path)]
    return frames[-1].lineno if frames else None


@cache
def _import(path: Path, mtime: float) -> ModuleType:
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:12]
    name = f"provisioning_plugins_{digest}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise PluginError(f"cannot load filter plugin {path}: {type(exc).__name__}: {exc}",
                          SourcePosition(str(path), _error_line(path, exc))) from None
    return module


def _collect(module: ModuleType, path: Path, class_name: str, method: str) -> Plugins:
    plugin_class = getattr(module, class_name, None)
    if plugin_class is None:
        return {}
    try:
        found = getattr(plugin_class(), method)()
    except Exception as exc:
        raise PluginError(f"{path}: {class_name}().{method}() failed: {type(exc).__name__}: {exc}",
                          SourcePosition(str(path), _error_line(path, exc))) from None
    if not isinstance(found, dict) or not all(isinstance(key, str) and callable(value)
                                              for key, value in found.items()):
        raise PluginError(f"{path}: {class_name}().{method}() must return a dict of names to functions",
                          SourcePosition(str(path)))
    return found


def load_plugin_file(path: Path) -> tuple[Plugins, Plugins]:
    module = _import(path.resolve(), path.stat().st_mtime)
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
            file_filters, file_tests = load_plugin_file(path)
            filters.update(file_filters)
            tests.update(file_tests)
    return filters, tests
