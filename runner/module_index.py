"""Finding modules: the configured ``library`` directories (and the playbook's and roles' ``library/``) first,
then the shipped ``modules`` package; a collection's module by its fully qualified name (``NS.COLL.NAME``)
through the collections path, or natively where it has a native equivalent (``runner.ansible_api.collections``).
A module file written against Ansible's Python API (``ansible.module_utils``) is run through the compatibility
layer (``runner.ansible_api``): it is packed with what it imports and never imported on the controller.

A module's source is read once per run and identified by its sha256, which is how the remote agent caches it.
Its argument spec is read on the controller too, so the compiler can check a task's arguments before any
host is touched.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

import modules as shipped_modules
from runner.ansible_api.action_check import builtin_action_alias, supports_raw_params
from runner.ansible_api.collections import (
    BUILTIN_COLLECTIONS,
    NATIVE_EQUIVALENTS,
    collection_dir,
    find_collection_module,
    find_collection_plugin,
    split_fqcn,
)
from runner.ansible_api.core import ansible_core_dir
from runner.ansible_api.detect import uses_ansible_api
from runner.ansible_api.legacy import legacy_style
from runner.ansible_api.packer import pack
from runner.ansible_api.profiles import module_profile
from runner.ansible_api.routing import (
    BUILTIN,
    NO_ANSIBLE_CORE_HINT,
    builtin_routing,
    collection_runtime,
    module_action_plugin,
    route,
    warn_deprecated,
)
from runner.errors import UserError, did_you_mean

UTILS = "_utils"
LEGACY_RUNNER = "_legacy_module"
# Files beside a library's modules that are not modules run here: bytecode, Windows' PowerShell modules.
NOT_MODULE_SUFFIXES = frozenset({".py", ".pyc", ".pyo", ".ps1", ".psm1", ".cs"})
# ``from modules._files import x`` / ``import modules._files``: helper files a module needs on the target.
_HELPER_IMPORT = re.compile(r"^\s*(?:from|import)\s+modules\.(_\w+)", re.M)
BUILTIN_PREFIXES = tuple(f"{collection}." for collection in BUILTIN_COLLECTIONS)


RAW_PARAMS_NAME = "_raw_params"  # where free-form words go, as ansible-core names the argument

@dataclass(frozen=True)
class ModuleSource:
    """A module file as the agent receives it."""

    name: str
    source: bytes
    digest: str
    fqn: str | None = None  # a packed Ansible-API module (a zip): the dotted name it runs as
    profile: str = "legacy"  # a packed Ansible-API module's serialization profile (runner.ansible_api.profiles)


@dataclass
class ModuleInfo:
    name: str
    path: Path
    source: ModuleSource
    _loaded: ModuleType | None = field(default=None, repr=False)
    ansible_api: bool = False  # written against ansible.module_utils: packed and run by the compatibility layer
    collection: str | None = None  # NS.COLL of a collection's module
    # The collection's action plugin of the same name, which runs on the controller around the module call.
    action_plugin: Path | None = None
    # A library module of Ansible's older kinds (old, want_json, binary: runner.ansible_api.legacy), run by the
    # shipped helper modules/_legacy_module.py.
    legacy_style: str | None = None

    @cached_property
    def python(self) -> ModuleType:
        """The module imported on the controller, to read its spec and documentation (never to run it). An
        Ansible-API module is never imported here (it runs only on the host): it stands for a module that takes
        any argument, which its own AnsibleModule checks on the host."""
        if self.ansible_api or self.legacy_style:
            stand_in = ModuleType(self.name)
            stand_in.ANY_ARGUMENTS = True  # type: ignore[attr-defined]
            return stand_in
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
        if self.action_plugin is not None and supports_raw_params(self.action_plugin):
            return RAW_PARAMS_NAME  # an action plugin's free-form words, under the name ansible-core gives them
        return getattr(self.python, "FREE_FORM", None)

    @property
    def documentation(self) -> dict[str, Any]:
        return getattr(self.python, "DOCUMENTATION", {}) or {}

    @property
    def any_arguments(self) -> bool:
        """The module takes arguments of any name (set_fact, add_host): there is no spec to check them with."""
        return bool(getattr(self.python, "ANY_ARGUMENTS", False))

    @property
    def chosen_from(self) -> tuple[str, ...]:
        """The modules one of which does this one's work, chosen per host where the task runs (``service``:
        systemd or sysvinit; ``package``: apt, dnf, ...): their module_defaults apply to the task too."""
        return tuple(getattr(self.python, "CHOSEN_FROM", ()))

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

    def __init__(self, library_dirs: Iterable[Path] = (), *, collections_paths: Iterable[Path] = (),
                 module_utils_dirs: Iterable[Path] = (), warn: Callable[[str], None] | None = None,
                 rejected: Iterable[str] = ()):
        self.shipped = Path(shipped_modules.__file__).parent
        self.dirs = [Path(d) for d in library_dirs] + [self.shipped]
        self.collections_paths = [Path(d) for d in collections_paths]
        self.module_utils_dirs = [Path(d) for d in module_utils_dirs]
        self.action_dirs: list[Path] = []  # action_plugins/ beside playbooks and in roles
        self._cache: dict[str, ModuleInfo | None] = {}
        self._packed: dict[str, ModuleSource] = {}
        self._project_libraries = 0  # how many of ``dirs`` come from playbooks' and roles' directories
        self.utils = _read_source(UTILS, Path(shipped_modules.__file__).parent / f"{UTILS}.py")
        self._helpers: dict[str, ModuleSource] = {UTILS: self.utils}
        self._sources: dict[str, list[ModuleSource]] = {}  # module -> what the agent needs to run it
        self.warn = warn or warn_deprecated  # a routing's deprecations, once per name (resolutions are cached)
        # plugin_filters_cfg's module_rejectlist: short names (ansible.builtin's and ansible.legacy's) found nowhere,
        # as ansible-core's loader filters its own and the library's modules; a collection's full name is not
        # filtered there either.
        self.rejected = frozenset(rejected)

    @staticmethod
    def canonical(name: str) -> str:
        for prefix in BUILTIN_PREFIXES:
            if name.startswith(prefix):
                return name[len(prefix):]
        return name

    def add_project_dirs(self, directories: Iterable[Path]) -> None:
        """Add the ``library/`` and ``module_utils/`` of a playbook's or a role's directory, as Ansible does:
        their modules come before the configured and shipped ones."""
        added = False
        for directory in directories:
            library, module_utils = Path(directory) / "library", Path(directory) / "module_utils"
            if library.is_dir() and library not in self.dirs:
                # after the project's earlier ones, before the configured and shipped modules (as Ansible does)
                self.dirs.insert(self._project_libraries, library)
                self._project_libraries += 1
                added = True
            if module_utils.is_dir() and module_utils not in self.module_utils_dirs:
                self.module_utils_dirs.append(module_utils)
                self._packed.clear()
            actions = Path(directory) / "action_plugins"
            if actions.is_dir() and actions not in self.action_dirs:
                self.action_dirs.append(actions)
                added = True
        if added:
            self._cache.clear()

    def is_project_module(self, info: ModuleInfo) -> bool:
        """Whether ``info`` is a module of a library folder (a playbook's, a role's, the configured library) or
        runs a local action plugin: ansible-core's ``ansible.legacy`` collection, not ``ansible.builtin``."""
        if info.collection is not None:
            return False
        return info.action_plugin is not None or (info.path.parent != self.shipped and info.path.parent in self.dirs)

    def find(self, name: str, collections: Iterable[str] = ()) -> ModuleInfo | None:
        """The module ``name`` stands for: a short name is looked up in ``collections`` (a play's or role's
        ``collections:`` keyword) first, then among the library and native modules; a name qualified with
        ``ansible.builtin.`` or ``ansible.legacy.`` never goes through ``collections``."""
        written, name = name, self.canonical(name)
        if written.startswith(f"{BUILTIN}.") and "." not in name:
            return self._builtin(name)
        if "." not in written:
            for collection in collections:
                if collection not in BUILTIN_COLLECTIONS:
                    found = self.find(f"{collection}.{name}")
                    if found is not None:
                        return found
        if name in self._cache:
            return self._cache[name]
        info = None
        fqcn = split_fqcn(name)
        if fqcn is None and name in self.rejected:
            info = None  # filtered out: not even routed
        elif fqcn is not None:
            info = self._collection_module(name, *fqcn)
        elif name.isidentifier() and not name.startswith("_"):
            for directory in self.dirs:
                info = self._library_module(directory, name)
                if info is not None:
                    break
            info = self._with_project_action(name, info)
            if info is None:  # no module of ours: where ansible-core routes the name (a module moved to a collection)
                info = self._routed(f"{BUILTIN}.{name}")
        self._cache[name] = info
        return info

    def _builtin(self, name: str) -> ModuleInfo | None:
        """``ansible.builtin.NAME``: a module shipped here (or where ansible-core routes the name), never one of a
        library folder or a local action plugin, which only the short and ``ansible.legacy.`` names find."""
        key = f"{BUILTIN}.{name}"
        if key not in self._cache:
            shipped = name.isidentifier() and not name.startswith("_")
            info = self._library_module(self.shipped, name) if shipped else None
            # plugin_filters_cfg's module_rejectlist hides the builtin name too
            self._cache[key] = None if name in self.rejected else info if info is not None else self._routed(key)
        return self._cache[key]

    def resolved_name(self, written: str, info: ModuleInfo) -> str:
        """The name a task that names ``written`` and resolved to ``info`` keeps in the plan, which the workers
        resolve again: ``info``'s, or ``ansible.builtin.NAME`` as written where the short name finds another
        module (a library folder's of the same name)."""
        if written.startswith(f"{BUILTIN}.") and "." not in info.name:
            legacy = self.find(info.name)
            if legacy is None or (legacy.path, legacy.action_plugin) != (info.path, info.action_plugin):
                return written
        return info.name

    def _with_project_action(self, name: str, info: ModuleInfo | None) -> ModuleInfo | None:
        """``info`` with the ``action_plugins/NAME.py`` of a playbook or role, which runs on the controller in the
        module's place (as Ansible's local action plugins do); the plugin alone when there is no module."""
        action = next((folder / f"{name}.py" for folder in self.action_dirs if (folder / f"{name}.py").is_file()),
                      None)
        if action is None:
            return info
        alias = builtin_action_alias(action)
        if alias is not None:  # ansible-core's own action under another name: the native one of that name
            return info or self.find(alias)
        if info is None:
            return ModuleInfo(name, action, _read_source(name, action), ansible_api=True, action_plugin=action)
        return replace(info, action_plugin=action)

    def _library_module(self, directory: Path, name: str) -> ModuleInfo | None:
        """``name.py`` in ``directory``; in a library directory also a file without the extension or with
        another one (Ansible's modules may have any). A library's file is a native module, one written against
        Ansible's API, or one of Ansible's older kinds (old-style, WANT_JSON, binary), told apart as ansible-core
        does."""
        shipped = directory == self.shipped
        candidates = [directory / f"{name}.py"]
        if not shipped:
            # Ansible's module names leave out any extension (helloworld.sh is helloworld), and a leading
            # underscore, which marks a deprecated module: _old.py answers to 'old' when nothing else in the
            # folder does.
            candidates += [directory / name, *self._with_extension(directory, name)]
            candidates += [directory / f"_{name}.py", directory / f"_{name}",
                           *self._with_extension(directory, f"_{name}")]
        for path in candidates:
            if not path.is_file():
                continue
            source = _read_source(name, path)
            if shipped:
                return ModuleInfo(name, path, source)
            if uses_ansible_api(source.source):
                return ModuleInfo(name, path, source, ansible_api=True)
            return ModuleInfo(name, path, source,
                              legacy_style=legacy_style(source.source, python_file=path.suffix == ".py"))
        return None

    @staticmethod
    def _with_extension(directory: Path, stem: str) -> list[Path]:
        return sorted(path for path in directory.glob(f"{stem}.*") if path.suffix not in NOT_MODULE_SUFFIXES)

    def legacy_runner(self) -> ModuleInfo:
        """The shipped helper that runs modules of Ansible's older kinds on the host."""
        return self._helper_module(LEGACY_RUNNER)

    def _helper_module(self, name: str) -> ModuleInfo:
        helper = self._helper(name)
        return ModuleInfo(name, Path(shipped_modules.__file__).parent / f"{name}.py", helper)

    def in_some_collection(self, name: str) -> bool:
        """Whether any collection in the collections path has a module or an action plugin ``name`` (a short
        name), or routes that name."""
        if not name.isidentifier():
            return False
        for base in self.collections_paths:
            for directory in base.glob("ansible_collections/*/*"):
                if any((directory / "plugins" / kind / f"{name}.py").is_file() for kind in ("modules", "action")):
                    return True
                runtime = collection_runtime(f"{directory.parent.name}.{directory.name}", self.collections_paths)
                if runtime is not None and any(name in runtime.routing.get(kind, {}) for kind in ("modules", "action")):
                    return True
        return False

    def is_routed(self, name: str) -> bool:
        """Whether routing sends ``name`` elsewhere (so it names a module, installed or not)."""
        short = self.canonical(name)
        target = ".".join(split_fqcn(short) or (BUILTIN, short))
        return any(route(kind, target, self.collections_paths) != target for kind in ("modules", "action"))

    def _routed(self, name: str) -> ModuleInfo | None:
        """The module the routing of ``name`` (a fully qualified name) leads to, modules' routing first, then
        action plugins'; None when nothing routes it elsewhere. A RoutingError for a removed name or a loop."""
        for kind in ("modules", "action"):
            target = route(kind, name, self.collections_paths, self.warn)
            if target != name:
                return self.find(target)
        return None

    def _collection_module(self, name: str, collection: str, short: str) -> ModuleInfo | None:
        native = NATIVE_EQUIVALENTS.get(name)
        if native is not None and native.startswith("_"):  # answers to its full name only, never a short one
            shipped = self._library_module(self.shipped, native)
            return replace(shipped, name=name) if shipped is not None else None
        if native is not None:
            return self.find(native)
        routed = self._routed(name)  # the collection's meta/runtime.yml comes before its files, as in ansible-core
        if routed is not None and routed.action_plugin is None and routed.collection is not None:
            # a module redirected to one without an action plugin runs under the action plugin the name itself
            # is routed to, as ansible-core's task executor looks for an action plugin by the task's name; it
            # keeps the name, which the workers resolve again
            by_name = self._routed_action(name)
            if by_name is not None:
                routed = replace(routed, name=name, action_plugin=by_name[1])
        if routed is not None:
            return routed
        path = find_collection_module(collection, short, self.collections_paths)
        named = module_action_plugin(name, self.collections_paths) if path is not None else None
        action: Path | None
        if named is not None:  # the module's routing names the action plugin that runs it, before its own name's
            action = self._named_action_plugin(name, named)
        else:
            action = find_collection_plugin(collection, "action", short, self.collections_paths)
        if path is None and action is None:
            return None
        # An action plugin without a module of its name stands in its place (it calls other modules).
        source = path or action
        assert source is not None
        return ModuleInfo(name, source, _read_source(name, source), ansible_api=True, collection=collection,
                          action_plugin=action)

    def collection_action(self, name: str) -> str | None:
        """The full name of the collection's action plugin ``name`` (``NS.COLL.X``) answers to after the action
        plugins' routing, when that plugin exists; None otherwise."""
        action = self._routed_action(name)
        return action[0] if action is not None else None

    def _routed_action(self, name: str) -> tuple[str, Path] | None:
        """The full name and file of the collection's action plugin ``name`` (``NS.COLL.X``) answers to after the
        action plugins' routing; None when it names none of a collection (``ansible.builtin``'s are native)."""
        fqcn = split_fqcn(name)
        if fqcn is None or fqcn[0] in BUILTIN_COLLECTIONS:
            return None
        target = route("action", name, self.collections_paths, self.warn)
        found = split_fqcn(target)
        if found is None or found[0] in BUILTIN_COLLECTIONS:
            return None
        path = find_collection_plugin(found[0], "action", found[1], self.collections_paths)
        return (target, path) if path is not None else None

    def defaults_name(self, name: str) -> str | None:
        """The name ``module_defaults`` are matched by for ``name`` (a collection's action or module, fully
        qualified), as ansible-core resolves a task's action and a defaults key alike: a module whose routing
        names the action plugin that runs it is itself; else an action plugin, where the action plugins' routing
        leads; else the module, where the modules' routing leads. None when nothing answers to it."""
        info = self.find(name)
        if info is not None and info.collection is not None and module_action_plugin(info.name, self.collections_paths):
            return info.name
        return self.collection_action(name) or (info.name if info is not None else None)

    def _named_action_plugin(self, module: str, named: str) -> Path:
        """The file of the action plugin a module's routing entry names (``action_plugin: NS.COLL.X``), where the
        action plugins' routing leads it; a UserError when there is none, as ansible-core's "handler not found"."""
        action = self._routed_action(named)
        if action is None:
            raise UserError(f"the handler '{named}' of the module '{module}' (its action_plugin in the collection's "
                            f"meta/runtime.yml) was not found")
        return action[1]

    def packed(self, info: ModuleInfo) -> ModuleSource:
        """An Ansible-API module packed with the module_utils it imports, as the agent receives it (once per
        run). A UserError when ansible-core is not installed or an import is not found."""
        cached = self._packed.get(info.name)
        if cached is None:
            ansible_core_dir(f"the module {info.name}")  # first: without ansible-core, say so before anything else
            profile = module_profile(info.source.source)
            result = pack(info.path, info.name.rsplit(".", 1)[-1], collection=info.collection,
                          module_utils_dirs=self.module_utils_dirs, collections_paths=self.collections_paths,
                          profile=profile)
            cached = self._packed[info.name] = ModuleSource(info.name, result.data, result.digest, result.fqn,
                                                            profile)
        return cached

    def get(self, name: str) -> ModuleInfo:
        info = self.find(name)
        if info is None:
            raise self.unresolved(name)
        return info

    def unresolved(self, name: str) -> UserError:
        """The error for a name ``find`` resolved nowhere: where routing sent it and which collection is missing,
        else the names it may have meant."""
        message = f"couldn't resolve module/action '{name}'"
        short = self.canonical(name)
        fqcn = split_fqcn(short) or (BUILTIN, short)
        target = ".".join(fqcn)
        for kind in ("modules", "action"):
            routed = route(kind, target, self.collections_paths)
            if routed != target:
                message += f": ansible-core routes it to {routed}"
                target = routed
                break
        collection = ".".join(target.split(".")[:2])  # NS.COLL, also of a name with subfolders (NS.COLL.SUB.X)
        if collection != BUILTIN and collection_dir(collection, self.collections_paths) is None:
            return UserError(f"{message}; the collection {collection} is not installed in the collections path",
                             hint=f"install it: provisioning-galaxy collection install {collection} (or "
                                  "ansible-galaxy collection install)")
        hint = did_you_mean(short, self.names()) or "see provisioning-doc --list"
        if collection == BUILTIN and builtin_routing() is None:
            hint = f"{hint}; {NO_ANSIBLE_CORE_HINT}"
        return UserError(message, hint=hint)

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


def plan_module_index(plan: Any, library: Iterable[Path], collections_paths: Iterable[Path]) -> ModuleIndex:
    """The index a run's workers resolve modules with: the compiler's, with the ``library/`` and ``module_utils/``
    of the plan's playbook directory, its plays' and its roles' directories, in the order the compiler met them."""
    index = ModuleIndex(library, collections_paths=collections_paths)
    directories = [plan.playbook_dir, *(path for play in plan.plays for path in play.search_paths),
                   *(role.path for role in plan.roles)]
    index.add_project_dirs(Path(directory) for directory in dict.fromkeys(directories) if directory)
    return index
