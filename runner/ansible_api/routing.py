"""Plugin routing as ansible-core defines it in ``runtime.yml`` files: ``plugin_routing.<kind>.<name>`` entries
with a ``redirect`` (the plugin moved: follow it to its new fully qualified name), a ``deprecation`` (a warning) or
a ``tombstone`` (the plugin was removed: an error with its message); a module's entry may also name the
``action_plugin`` that runs it.

ansible-core's own routing (``ansible/config/ansible_builtin_runtime.yml``: the modules, filters, tests and
lookups that moved out of ansible-core into collections) is read at run time from the installed ansible-core,
never copied here (it is GPLv3); without ansible-core short names are not routed. A collection's routing is its
``meta/runtime.yml``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from runner.ansible_api.collections import BUILTIN_COLLECTIONS, collection_dir, split_fqcn
from runner.ansible_api.core import installed_ansible_core
from runner.errors import UserError

# The ``plugin_routing`` section of each kind of plugin this runner resolves by name.
KINDS = ("modules", "action", "filter", "test", "lookup", "inventory")
BUILTIN = "ansible.builtin"
NO_ANSIBLE_CORE_HINT = ("ansible-core routes some short names to collections; install the `ansible` extra to follow "
                        "its routing (pip install 'provisioning[ansible]')")
# A chain longer than this is a loop through names we could not tell apart (ansible-core stops at a loop too).
MAX_REDIRECTS = 16


class RoutingError(UserError):
    """A name whose routing ends in a tombstone (the plugin was removed) or a redirect loop."""


@dataclass(frozen=True)
class Entry:
    """One ``plugin_routing.<kind>.<name>`` entry."""

    redirect: str | None = None
    deprecation: str | None = None
    tombstone: str | None = None
    action_plugin: str | None = None  # a module's: the action plugin that runs it (by its full name)


Routing = dict[str, dict[str, Entry]]  # kind -> short name -> entry


def _message(section: Any) -> str:
    """The text of a ``deprecation`` or ``tombstone`` section: its ``warning_text`` and when it goes or went."""
    if not isinstance(section, dict):
        return ""
    text = str(section.get("warning_text") or "").strip()
    when = section.get("removal_version") or section.get("removal_date")
    return f"{text} (removal: {when})" if when and text else text or (f"removal: {when}" if when else "")


def parse_routing(data: Any) -> Routing:
    """The routing entries of a parsed runtime.yml, for the kinds this runner resolves; other keys are ignored."""
    routing: Routing = {}
    sections = data.get("plugin_routing") if isinstance(data, dict) else None
    if not isinstance(sections, dict):
        return routing
    for kind in KINDS:
        entries = sections.get(kind)
        if not isinstance(entries, dict):
            continue
        routing[kind] = {
            str(name): Entry(redirect=str(entry["redirect"]) if entry.get("redirect") else None,
                             deprecation=_message(entry["deprecation"]) if "deprecation" in entry else None,
                             tombstone=_message(entry["tombstone"]) if "tombstone" in entry else None,
                             action_plugin=str(entry["action_plugin"]) if entry.get("action_plugin") else None)
            for name, entry in entries.items() if isinstance(entry, dict)}
    return routing


@dataclass(frozen=True)
class Runtime:
    """What a runtime.yml says that this runner uses: its routing, and its ``action_groups`` as written."""

    routing: Routing
    action_groups: dict[str, Any]


def _read(path: Path) -> Runtime:
    try:
        data = yaml.load(path.read_bytes(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError) as exc:
        raise UserError(f"{path}: cannot read the plugin routing: {exc}") from None
    groups = data.get("action_groups") if isinstance(data, dict) else None
    return Runtime(parse_routing(data), groups if isinstance(groups, dict) else {})


@cache
def builtin_runtime() -> Runtime | None:
    """ansible-core's runtime.yml of ``ansible.builtin``, from the installed ansible-core; None without it."""
    core = installed_ansible_core()
    if core is None:
        return None
    path = core / "config" / "ansible_builtin_runtime.yml"
    return _read(path) if path.is_file() else Runtime({}, {})


def builtin_routing() -> Routing | None:
    """ansible-core's routing of ``ansible.builtin`` names, from the installed ansible-core; None without it."""
    runtime = builtin_runtime()
    return None if runtime is None else runtime.routing


# Collections' runtime.yml by collection directory, as read with the file's modification time and size (read
# again when they change, in a process that compiles more than once); the plan cache checks them as compile inputs.
_collection_runtimes: dict[Path, tuple[tuple[int, int] | None, Runtime]] = {}


def _collection_runtime(directory: Path) -> Runtime:
    path = directory / "meta" / "runtime.yml"
    try:
        status = path.stat()
        version: tuple[int, int] | None = (status.st_mtime_ns, status.st_size)
    except OSError:
        version = None
    found = _collection_runtimes.get(directory)
    if found is None or found[0] != version:
        found = _collection_runtimes[directory] = (version, _read(path) if version is not None else Runtime({}, {}))
    return found[1]


def runtime_files_read() -> list[Path]:
    """The runtime.yml files routing has read in this process: ansible-core's, and the collections' that exist."""
    core = installed_ansible_core() if builtin_runtime.cache_info().currsize else None
    files = [core / "config" / "ansible_builtin_runtime.yml"] if core is not None else []
    files += [directory / "meta" / "runtime.yml" for directory in _collection_runtimes]
    return [path for path in files if path.is_file()]


def collection_runtime(collection: str, collections_paths: Iterable[Path]) -> Runtime | None:
    """The runtime.yml of ``collection`` (``NS.COLL``): ansible-core's for ``ansible.builtin``, the collection's
    ``meta/runtime.yml`` for an installed one; None when it is not known (not installed, no ansible-core)."""
    if collection in BUILTIN_COLLECTIONS:
        return builtin_runtime()
    directory = collection_dir(collection, collections_paths)
    return None if directory is None else _collection_runtime(directory)


def collection_routing(collection: str, collections_paths: Iterable[Path]) -> Routing | None:
    """The routing of ``collection``; None when it is not known."""
    runtime = collection_runtime(collection, collections_paths)
    return None if runtime is None else runtime.routing


def route(kind: str, name: str, collections_paths: Iterable[Path],
          warn: Callable[[str], None] | None = None) -> str:
    """The fully qualified name ``name`` (``NS.COLL.X``; a short name is ``ansible.builtin``'s) ends at after the
    routing of ``kind`` of each collection on the way: ``name`` itself when nothing routes it. Deprecations go to
    ``warn``; a tombstone or a loop is a RoutingError."""
    paths = tuple(collections_paths)
    current = name if name.count(".") >= 2 else f"{BUILTIN}.{name}"
    seen = [current]
    while True:
        collection, short = split_fqcn(current) or current.rsplit(".", 1)
        routing = collection_routing(collection, paths)
        entry = (routing or {}).get(kind, {}).get(short)
        if entry is None:
            return current
        if entry.tombstone is not None:
            raise RoutingError(f"'{current}' has been removed" + (f": {entry.tombstone}" if entry.tombstone else ""))
        if entry.deprecation is not None and warn is not None:
            warn(f"'{current}' is deprecated" + (f": {entry.deprecation}" if entry.deprecation else ""))
        if entry.redirect is None:
            return current
        target = entry.redirect
        if split_fqcn(target) is None:  # as ansible-core: a redirect names the plugin by its full name
            raise RoutingError(f"the collection {collection} redirects '{current}' to '{target}': redirects must "
                               "use fully qualified collection names")
        if target in seen or len(seen) > MAX_REDIRECTS:
            raise RoutingError(f"the plugin routing of '{name}' loops: {' -> '.join([*seen, target])}")
        seen.append(target)
        current = target


def module_action_plugin(name: str, collections_paths: Iterable[Path]) -> str | None:
    """The action plugin the routing entry of module ``name`` (fully qualified, where its redirects end) names to
    run it (``action_plugin: NS.COLL.X``), as ansible-core's task executor prefers it to an action plugin of the
    module's own name; None when it names none."""
    fqcn = split_fqcn(name)
    if fqcn is None:
        return None
    routing = collection_routing(fqcn[0], tuple(collections_paths))
    entry = (routing or {}).get("modules", {}).get(fqcn[1])
    return None if entry is None else entry.action_plugin


def warn_deprecated(message: str) -> None:
    """A routing's deprecation, on stderr as ansible-core prints it."""
    sys.stderr.write(f"[DEPRECATION WARNING]: {message}\n")


def routed_elsewhere(kind: str, name: str, collections_paths: Iterable[Path],
                     warn: Callable[[str], None] | None = warn_deprecated) -> str | None:
    """The fully qualified name routing sends ``name`` (short, ``ansible.builtin.X`` or ``NS.COLL.X``) to, when it
    sends it to another name; None when nothing routes it."""
    qualified = name if name.count(".") >= 2 else f"{BUILTIN}.{name}"
    target = route(kind, qualified, collections_paths, warn)
    return None if target == qualified else target
