"""Warm compile: a compiled plan kept in the user's cache, so a run of an unchanged playbook skips parsing and
compiling it.

An entry is found by a hash of what the compile was asked (the playbooks, the compile options with the extra
vars, every setting of the configuration — wherever it came from: file, environment, command line —, the working
directory) and of the code that compiles (the product's version, Python's, Jinja2's and pydantic's, and the
source of the packages that make a plan). It is used only when everything the compile read is still the same:

- every file the loader read (playbooks, imported task files, roles' files, vars_files, extra-vars files), by
  sha256 of its content;
- the source of every module the plan names (its argument names were checked against the module's spec), the
  files of the configured filter plugin folders and of the ``filter_plugins/``, ``test_plugins/`` and
  ``lookup_plugins/`` folders beside the playbooks and in the roles, every plugin file imported (a collection's
  filters and tests that the templates name), and the runtime.yml files whose routing and action groups the
  compile followed;
- the listing of the directories the compile looked in (the files' own directories, the roles' sections, the
  roles and library search paths, the plugin folders, present or not), so that a file that appears where the
  compile found none (a role's ``vars/main.yml``, a role or a module earlier on a search path, a plugin) also
  misses.

The inventory is not part of the key: a plan is compiled before the inventory is read and holds nothing of it.

Not cached: a compile that read a secret (a file encrypted as a whole, a SOPS document: the plan would hold its
plaintext), one with dynamic includes (compiled at run time against the compiler's state, which is not kept), and
one that imports an infra (it reads the providers' and taskservs' catalogues, outside the loader). Inline
``!vault`` values are kept as their ciphertext.

The file is the user's own (0600 in a 0700 directory, refused otherwise), written atomically, and carries the
sha256 of its payload: a file that does not verify, or fails to load in any way, is a miss, and the compile that
follows replaces it. Templates compiled for the plan are kept as their code (marshal), so a hit skips compiling
them too.
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import json
import logging
import marshal
import os
import pickle
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.ansible_api.plugin_import import imported_plugin_files
from runner.ansible_api.routing import runtime_files_read
from runner.compiler import CompileOptions, Compiler
from runner.config import Config
from runner.loader.reads import ReadLog, recording_reads
from runner.plan import Plan
from runner.templating.environment import add_project_plugins, get_environment
from runner.templating.plugin_paths import FILTER_AND_TEST_FOLDERS, LOOKUP_FOLDER
from runner.util.user_cache import add_sources, cache_directory, read_own_file, write_own_file

log = logging.getLogger(__name__)

_HEADER = b"provisioning plan cache 1 sha256="  # then the payload's sha256 in hex, a newline and the payload
# The code whose behaviour decides a plan: a change to any of it (a new version, an edited checkout) is a new key.
_SOURCES = ("runner/compiler", "runner/loader", "runner/models", "runner/plan", "runner/templating",
            "runner/parsing", "runner/module_index.py", "runner/positions.py", "runner/errors.py",
            "runner/secrets/encrypted.py", "runner/util/unsafe.py", "modules/_utils.py")
_ROLE_SECTIONS = ("tasks", "handlers", "defaults", "vars", "meta")
PROJECT_PLUGIN_FOLDERS = (*FILTER_AND_TEST_FOLDERS, LOOKUP_FOLDER)


@dataclass
class _Entry:
    key: str
    files: dict[str, str]  # path -> sha256 of its content
    directories: dict[str, str]  # path -> sha256 of its sorted listing ("" when missing)
    plan: Plan
    vars_files: list[Path]
    templates: dict[str, bytes]  # template source -> marshalled code


def compile_with_cache(compiler: Compiler, playbooks: Sequence[Path], infras: Sequence[Path], config: Config, *,
                       enabled: bool) -> Plan:
    """``compiler.compile_playbooks(playbooks, infras)``, from the cache when an entry for the same inputs holds,
    else compiled and then stored. A caller that read files the plan depends on before (``-e @file``) records
    them in an enclosing ``recording_reads``."""
    with recording_reads() as reads:
        path = _entry_path(compiler.options, playbooks, config) if enabled and not infras and not reads.secret \
            else None
        if path is not None:
            with _no_collection():
                entry = _load(path)
                if entry is not None:
                    compiler.plan, compiler.vars_files = entry.plan, entry.vars_files
                    get_environment().adopt_compiled({source: marshal.loads(code)
                                                      for source, code in entry.templates.items()})
            if entry is not None:
                log.info("PLAN CACHE hit: %s", path)
                _add_plan_plugins(entry.plan)
                return entry.plan
        plan = compiler.compile_playbooks(list(playbooks), list(infras))
    if path is not None:
        _store(path, compiler, reads)
    return plan


def _add_plan_plugins(plan: Plan) -> None:
    """The plugin folders a compile adds as it meets the playbook and its roles (filter_plugins/, test_plugins/,
    lookup_plugins/), added for a plan from the cache: its templates' code names those plugins."""
    for directory in _plugin_owners(plan):
        add_project_plugins(Path(directory))


def _plugin_owners(plan: Plan) -> list[str]:
    """The directories whose plugin folders a compile adds: the playbooks', the plays' search paths, the roles'."""
    owners = [plan.playbook_dir, *(path for play in plan.plays for path in play.search_paths),
              *(role.path for role in plan.roles)]
    return [owner for owner in dict.fromkeys(owners) if owner]


@contextmanager
def _no_collection() -> Iterator[None]:
    """The garbage collector paused: loading a plan makes many objects and no garbage, and the collector's passes
    over them (set off by the count of new objects) would cost more than the load itself."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# -- the key ------------------------------------------------------------------------------------------------------
def _entry_path(options: CompileOptions, playbooks: Sequence[Path], config: Config) -> Path | None:
    import jinja2
    import pydantic

    import runner

    digest = hashlib.sha256(_HEADER)
    for part in (runner.__version__, sys.version, jinja2.__version__, pydantic.VERSION, os.getcwd(),
                 *(f"{playbook}\0{Path(playbook).resolve()}" for playbook in playbooks),  # the plan names it as typed
                 _canonical({field.name: getattr(options, field.name) for field in dataclasses.fields(options)}),
                 _canonical([(name, value) for name, value, _ in config.items()])):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    try:
        add_sources(digest, _SOURCES)
        return cache_directory("plans") / f"{digest.hexdigest()[:40]}.plan"
    except (OSError, RuntimeError) as exc:  # a source not readable, no home directory: no cache
        log.info("PLAN CACHE off: %s", exc)
        return None


def _canonical(value: Any) -> str:
    """One text for equal values: JSON with sorted keys; anything JSON does not know by its type and repr (an
    inline vault value by its ciphertext, which its repr leaves out)."""
    def fallback(item: Any) -> Any:
        ciphertext = getattr(item, "ciphertext", None)
        if isinstance(ciphertext, str):
            return ["vault", ciphertext]
        if isinstance(item, set | frozenset):
            return sorted(map(repr, item))
        return [type(item).__qualname__, repr(item)]

    try:
        return json.dumps(value, sort_keys=True, default=fallback)
    except (TypeError, ValueError):  # keys of mixed types cannot be sorted: the repr is as deterministic
        return repr(value)


# -- what the compile read ----------------------------------------------------------------------------------------
def _uncacheable(compiler: Compiler, reads: ReadLog) -> str | None:
    if reads.secret:
        return f"it read a secret ({sorted(reads.secret)[0]})"
    if any(task.kind in ("include_tasks", "include_role") for task in compiler.plan.tasks):
        return "it has dynamic includes, compiled at run time"
    if compiler.imported_infras:
        return "it imports an infra, whose catalogues the loader does not read"
    return None


def _inputs(compiler: Compiler, reads: ReadLog) -> tuple[dict[str, str], dict[str, str]]:
    """The files the plan depends on with their hashes, and the directories the compile looked in with theirs."""
    files = dict(reads.files)
    index = compiler.tasks.index
    for name in {task.module for task in compiler.plan.tasks if task.module}:
        info = index.find(name)
        if info is not None:
            files.setdefault(str(info.path), _file_hash(info.path))
    for runtime in runtime_files_read():  # where routing sent the plan's short names, and its action groups
        files.setdefault(str(runtime), _file_hash(runtime))
    options = compiler.options
    playbook_dir = Path(compiler.plan.playbook_dir)
    plugin_dirs = [*options.filter_plugins, *_project_plugin_dirs(compiler.plan)]
    for directory in plugin_dirs:
        for plugin in sorted(directory.glob("*.py")) if directory.is_dir() else []:
            files.setdefault(str(plugin), _file_hash(plugin))
    for plugin in sorted(imported_plugin_files()):  # a collection's filters and tests the templates named
        files.setdefault(str(plugin), _file_hash(plugin))
    directories = [Path(name).parent for name in files]
    for role in compiler.plan.roles:
        directories += [Path(role.path), *(Path(role.path) / section for section in _ROLE_SECTIONS)]
    directories += [playbook_dir / "roles", *options.roles_path, *index.dirs, *plugin_dirs]
    return files, {str(directory): _listing_hash(directory) for directory in _unique(directories)}


def _project_plugin_dirs(plan: Plan) -> list[Path]:
    """The filter_plugins/, test_plugins/ and lookup_plugins/ folders beside the playbooks and in the roles,
    present or not: a plugin edited, removed or added there decides what the templates find."""
    return [Path(owner) / folder for owner in _plugin_owners(plan) for folder in PROJECT_PLUGIN_FOLDERS]


def _unique(paths: Iterable[Path]) -> list[Path]:
    return list(dict.fromkeys(Path(os.path.abspath(path)) for path in paths))


def _file_hash(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def _listing_hash(directory: Path) -> str:
    try:
        return hashlib.sha256("\0".join(sorted(os.listdir(directory))).encode("utf-8", "surrogateescape")).hexdigest()
    except OSError:
        return ""


def _still_the_same(entry: _Entry) -> str | None:
    """None when every file and directory the entry depends on is unchanged, else what changed."""
    for name, digest in entry.files.items():
        if _file_hash(Path(name)) != digest:
            return f"{name} changed"
    for name, digest in entry.directories.items():
        if _listing_hash(Path(name)) != digest:
            return f"the files in {name} changed"
    return None


# -- the file ---------------------------------------------------------------------------------------------------
def _load(path: Path) -> _Entry | None:
    data = read_own_file(path)
    if data is None:
        log.info("PLAN CACHE miss: no usable entry at %s (none yet, or not the user's own alone to write)", path)
        return None
    header, _, payload = data.partition(b"\n")
    if header != _HEADER + hashlib.sha256(payload).hexdigest().encode():
        log.info("PLAN CACHE miss: %s does not verify; it is replaced", path)
        return None
    try:
        entry = pickle.loads(payload)  # verified, the user's own file, named by the hash of what made it
    except Exception:  # a class renamed since: the key's sources should have changed; a miss all the same
        log.info("PLAN CACHE miss: %s cannot be read; it is replaced", path)
        return None
    if not isinstance(entry, _Entry) or entry.key != path.stem:
        log.info("PLAN CACHE miss: %s is not the entry for these inputs; it is replaced", path)
        return None
    changed = _still_the_same(entry)
    if changed is not None:
        log.info("PLAN CACHE miss: %s", changed)
        return None
    return entry


def _store(path: Path, compiler: Compiler, reads: ReadLog) -> None:
    reason = _uncacheable(compiler, reads)
    if reason is not None:
        log.info("PLAN CACHE not stored: %s", reason)
        return
    try:
        files, directories = _inputs(compiler, reads)
        templates = {source: marshal.dumps(code) for source, code in get_environment().compiled_code().items()}
        entry = _Entry(key=path.stem, files=files, directories=directories, plan=compiler.plan,
                       vars_files=list(compiler.vars_files), templates=templates)
        payload = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        write_own_file(path, _HEADER + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    except Exception as exc:  # a cache that cannot be written costs the next run its compile, nothing more
        log.info("PLAN CACHE not stored: %s", exc)
        return
    log.info("PLAN CACHE stored: %s", path)
