"""Finding modules: the shipped ``modules`` package first, then the configured ``library`` directories.

A module's source is read once per run and identified by its sha256, which is how the remote agent caches it.
Its argument spec is read on the controller too, so the compiler can check a task's arguments before any
host is touched.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

import modules as shipped_modules
from runner.errors import UserError, did_you_mean

UTILS = "_utils"
# ``from modules._files import x`` / ``import modules._files``: helper files a module needs on the target.
_HELPER_IMPORT = re.compile(r"^\s*(?:from|import)\s+modules\.(_\w+)", re.M)
BUILTIN_PREFIXES = ("ansible.builtin.", "ansible.legacy.", "provisioning.builtin.")


@dataclass(frozen=True)
class ModuleSource:
    """A module file as the agent receives it."""

    name: str
    source: bytes
    digest: str


@dataclass
class ModuleInfo:
    name: str
    path: Path
    source: ModuleSource
    _loaded: ModuleType | None = field(default=None, repr=False)

    @cached_property
    def python(self) -> ModuleType:
        """The module imported on the controller, to read its spec and documentation (never to run it)."""
        module_name = f"modules.{self.name}"
        existing = sys.modules.get(module_name)
        if existing is not None and getattr(existing, "__file__", None) == str(self.path):
            return existing
        spec = importlib.util.spec_from_file_location(module_name, self.path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
        return module

    @property
    def argument_spec(self) -> dict[str, Any]:
        return getattr(self.python, "ARGUMENT_SPEC", {})

    @property
    def spec_rules(self) -> dict[str, Any]:
        return getattr(self.python, "SPEC_RULES", {}) or {}

    @property
    def free_form(self) -> str | None:
        return getattr(self.python, "FREE_FORM", None)

    @property
    def documentation(self) -> dict[str, Any]:
        return getattr(self.python, "DOCUMENTATION", {}) or {}

    @property
    def any_arguments(self) -> bool:
        """The module takes arguments of any name (set_fact, add_host): there is no spec to check them with."""
        return bool(getattr(self.python, "ANY_ARGUMENTS", False))

    @property
    def action(self) -> str | None:
        """The controller-side action that does this module's work instead of the agent (``debug``, ``copy``
        ...): the module file's ``ACTION`` marker, a name in ``runner.actions.ACTIONS``."""
        return getattr(self.python, "ACTION", None)


def _read_source(name: str, path: Path) -> ModuleSource:
    data = path.read_bytes()
    return ModuleSource(name, data, hashlib.sha256(data).hexdigest())


class ModuleIndex:
    """Every module available to a run, by name."""

    def __init__(self, library_dirs: list[Path] | tuple[Path, ...] = ()):
        self.dirs = [Path(d) for d in library_dirs] + [Path(shipped_modules.__file__).parent]
        self._cache: dict[str, ModuleInfo | None] = {}
        self.utils = _read_source(UTILS, Path(shipped_modules.__file__).parent / f"{UTILS}.py")
        self._helpers: dict[str, ModuleSource] = {UTILS: self.utils}
        self._sources: dict[str, list[ModuleSource]] = {}  # module -> what the agent needs to run it

    @staticmethod
    def canonical(name: str) -> str:
        for prefix in BUILTIN_PREFIXES:
            if name.startswith(prefix):
                return name[len(prefix):]
        return name

    def find(self, name: str) -> ModuleInfo | None:
        name = self.canonical(name)
        if name in self._cache:
            return self._cache[name]
        info = None
        if name.isidentifier() and not name.startswith("_"):
            for directory in self.dirs:
                path = directory / f"{name}.py"
                if path.is_file():
                    info = ModuleInfo(name, path, _read_source(name, path))
                    break
        self._cache[name] = info
        return info

    def get(self, name: str) -> ModuleInfo:
        info = self.find(name)
        if info is None:
            raise UserError(f"couldn't resolve module/action '{name}'", hint=did_you_mean(
                self.canonical(name), self.names()) or "see provisioning-doc --list")
        return info

    def names(self) -> list[str]:
        found: set[str] = set()
        for directory in self.dirs:
            if directory.is_dir():
                found.update(p.stem for p in directory.glob("*.py") if not p.stem.startswith("_"))
        return sorted(found)

    def sources_for(self, info: ModuleInfo) -> list[ModuleSource]:
        """What the agent must hold to run ``info``: the helper files it imports (``modules._*``, each before what
        imports it, ``_utils`` always first), then the module itself."""
        cached = self._sources.get(info.name)
        if cached is None or cached[-1] is not info.source:
            ordered: list[ModuleSource] = [self.utils]
            self._add_helpers(info.source, ordered)
            cached = self._sources[info.name] = [*ordered, info.source]
        return cached

    def _add_helpers(self, source: ModuleSource, ordered: list[ModuleSource]) -> None:
        for name in _HELPER_IMPORT.findall(source.source.decode("utf-8", "replace")):
            if any(helper.name == name for helper in ordered):
                continue
            helper = self._helper(name)
            self._add_helpers(helper, ordered)
            ordered.append(helper)

    def _helper(self, name: str) -> ModuleSource:
        cached = self._helpers.get(name)
        if cached is None:
            path = Path(shipped_modules.__file__).parent / f"{name}.py"
            if not path.is_file():
                raise UserError(f"module helper modules.{name} does not exist")
            cached = self._helpers[name] = _read_source(name, path)
        return cached
