"""``provisioning-doc --list``: every module or plugin of a type by its fully qualified name, as ``ansible-doc
-l`` lists them.

Names come from three places, as in ansible-core: ``ansible.builtin`` (the shipped modules and language actions;
ansible-core's own plugins of other types, and Jinja's filters and tests), ``ansible.legacy`` (the configured and
``-M`` folders, and ``TYPE_plugins/`` beside ``--playbook-dir``) and each collection in the collections path. A
file in a sub-folder is named with it (``NS.COLL.SUB.NAME``); a filter or test file lists each filter or test it
defines. Each name shows its short description (``UNDOCUMENTED`` without one), or its file with ``--list_files``.
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from runner.ansible_api.collections import collection_dir
from runner.ansible_api.core import installed_ansible_core
from runner.cli.doc_sources import YAML_SUFFIXES, configured_plugin_dirs
from runner.cli.doc_text import tty_ify
from runner.errors import OptionError, UserError

BUILTIN = "ansible.builtin"
LEGACY = "ansible.legacy"
# what ansible-core never lists (ansible.plugins.list and the REJECT_EXTS / IGNORE_FILES settings)
IGNORED_NAMES = {"module": ("async_wrapper",), "cache": ("base",)}
IGNORE_FILES = ("COPYING", "CONTRIBUTING", "LICENSE", "README", "VERSION", "GUIDELINES", "MANIFEST", "Makefile")
REJECT_EXTS = (".pyc", ".pyo", ".swp", ".bak", "~", ".rpm", ".md", ".txt", ".rst")
DOC_FILE_EXTS = (".yml", ".yaml", ".json")
_COLLECTION_NAME = re.compile(r"^\w+\.\w+$")


@dataclass(frozen=True)
class Listed:
    """One listed plugin: its file (None for a Jinja builtin), and a Jinja builtin's own description."""

    name: str
    path: Path | None
    jinja_description: str | None = None


@dataclass(frozen=True)
class Sources:
    """Where plugins of a type are found: ``ansible.builtin``'s folders (and names with no file of their own),
    ``ansible.legacy``'s folders, and the collections path."""

    builtin_dirs: list[Path]
    builtin_names: dict[str, Path]
    legacy_dirs: list[Path]
    collections_paths: list[Path]


def collection_folder(kind: str) -> str:
    return "modules" if kind == "module" else kind


def plugin_sources(kind: str, *, shipped_modules: Path, language_pages: Mapping[str, Path], library: list[Path],
                   playbook_dir: Path | None, collections_paths: list[Path], env: Mapping[str, str]) -> Sources:
    core = installed_ansible_core()
    internal = core / "_internal" if core is not None else None
    if internal is not None and (internal / "ansible_collections").is_dir():
        # ansible-core's own collections (ansible._protomatter), listed when named
        collections_paths = [*collections_paths, internal]
    if kind == "module":
        # the shipped modules are this project's ansible.builtin (its _NAME.py files are helpers they share, not
        # modules); the language's actions have pages of their own
        shipped = {path.stem: path for path in shipped_modules.glob("*.py") if not path.stem.startswith("_")}
        return Sources([], {**shipped, **language_pages}, library, collections_paths)
    legacy = [*([playbook_dir / f"{kind}_plugins"] if playbook_dir is not None else []),
              *configured_plugin_dirs(kind, env)]
    return Sources([core / "plugins" / kind] if core is not None else [], {}, legacy, collections_paths)


def installed_collections(collections_paths: Iterable[Path]) -> dict[str, Path]:
    """Every collection in the collections path by ``NS.COLL``; the first path that has one wins."""
    found: dict[str, Path] = {}
    for base in collections_paths:
        root = base / "ansible_collections"
        if not root.is_dir():
            continue
        for namespace in sorted(root.iterdir()):
            if not namespace.is_dir():
                continue
            for collection in sorted(namespace.iterdir()):
                if collection.is_dir():
                    found.setdefault(f"{namespace.name}.{collection.name}", collection)
    return found


def check_collection_filters(filters: Iterable[str]) -> list[str]:
    names = list(filters)
    for name in names:
        if not _COLLECTION_NAME.match(name):
            raise OptionError(f"Invalid collection name (must be of the form namespace.collection): {name}")
    return names


def list_plugins(kind: str, sources: Sources, filters: list[str] | None) -> dict[str, Listed]:
    """The plugins of ``kind``, by fully qualified name, of the collections ``filters`` names (all when None)."""
    wanted: dict[str, Path | None] = {}
    if filters is None:
        wanted = {BUILTIN: None, LEGACY: None, **installed_collections(sources.collections_paths)}
    else:
        for name in filters:
            if name == LEGACY:
                wanted.update({LEGACY: None, BUILTIN: None})
            elif name == BUILTIN:
                wanted[BUILTIN] = None
            else:
                path = collection_dir(name, sources.collections_paths)
                if path is None:
                    raise OptionError(f"Cannot use supplied collection {name!r}: unable to locate collection {name}")
                wanted[name] = path
    found: dict[str, Listed] = {}
    jinja = jinja_builtins(kind) if BUILTIN in wanted else {}
    if kind in ("filter", "test"):
        from runner.ansible_api.plugin_import import use_collections_paths

        # a collection's filter file imports from it, from anywhere
        use_collections_paths([Path(os.path.abspath(path)) for path in sources.collections_paths])
    for collection, path in wanted.items():
        if collection == BUILTIN:
            dirs = sources.builtin_dirs
            found.update({f"{BUILTIN}.{name}": Listed(f"{BUILTIN}.{name}", file)
                          for name, file in sources.builtin_names.items()})
        elif collection == LEGACY:
            dirs = sources.legacy_dirs
        else:
            assert path is not None
            dirs = [path / "plugins" / collection_folder(kind)]
        for name, file in _from_dirs(kind, dirs, collection).items():
            found[name] = Listed(name, file, jinja.get(name))
    for name, description in jinja.items():  # Jinja's own, where ansible-core has none of that name
        found.setdefault(name, Listed(name, None, description))
    return found


def _from_dirs(kind: str, dirs: Iterable[Path], collection: str, depth: int = 0) -> dict[str, Path]:
    synthetic = collection in (BUILTIN, LEGACY)
    found: dict[str, Path] = {}
    for directory in dirs:
        if directory.name.startswith((".", "__")) or not directory.is_dir():
            continue
        for entry in sorted(directory.iterdir()):
            if entry.name.startswith((".", "__")):
                continue
            if entry.is_dir():
                if not synthetic or (entry / "__init__.py").exists():
                    found.update(_from_dirs(kind, [entry], collection, depth + 1))
                continue
            stem, suffix = os.path.splitext(entry.name)
            if (stem in IGNORE_FILES or suffix in REJECT_EXTS or suffix in DOC_FILE_EXTS
                    or stem in IGNORED_NAMES.get(kind, ()) or entry.is_symlink()):
                continue
            prefix = ".".join([collection, *(entry.parent.parts[-depth:] if depth else [])])
            if kind in ("filter", "test"):
                subdirs = [*(entry.parent.parts[-depth:] if depth else []), stem]
                module = None if synthetic else ".".join(["ansible_collections", collection, "plugins", kind, *subdirs])
                for name in _jinja_plugin_names(kind, entry, module):
                    found[f"{prefix}.{name}"] = entry
            else:
                found[f"{prefix}.{stem}"] = entry
    return found


def _jinja_plugin_names(kind: str, path: Path, module: str | None) -> list[str]:
    """The filters or tests a plugin file defines (it is imported, as ansible-core imports it to list them);
    ``module`` is a collection's file's dotted name, so its relative imports work."""
    if path.suffix != ".py":
        return []
    from runner.templating.plugins import load_plugin_file

    try:
        filters, tests = load_plugin_file(path, module)
    except UserError:
        return []
    return sorted(filters if kind == "filter" else tests)


def jinja_builtins(kind: str) -> dict[str, str]:
    """Jinja's own filters or tests as ``ansible.builtin.NAME``, each with the first sentence of its docstring."""
    if kind not in ("filter", "test"):
        return {}
    from jinja2 import defaults

    source = defaults.DEFAULT_FILTERS if kind == "filter" else defaults.DEFAULT_TESTS
    return {f"{BUILTIN}.{name}": _first_sentence(plugin) for name, plugin in source.items() if name.isidentifier()}


def _first_sentence(plugin: Any) -> str:
    value = re.split(r"(\.|!|\s\(|:\s)", inspect.getdoc(plugin) or "", maxsplit=1)[0].replace("\n", " ")
    return value + "." if value else value


def read_docstub(path: Path) -> Any:
    """The ``short_description`` of the file's documentation, read as ansible-core reads it for a listing (lines
    of the ``DOCUMENTATION`` string from ``short_description:`` while they are indented further, a final period
    dropped); None when there is none."""
    stub: list[str] = []
    in_documentation = capturing = False
    indent = ""
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if in_documentation:
                if capturing:
                    if not line.startswith(indent):
                        break
                    stub.append(line)
                elif line.lstrip().startswith("short_description:"):
                    capturing = True
                    indent = " " * (len(line) - len(line.lstrip()) + 1)
                    stub.append(line)
            elif line.startswith("DOCUMENTATION") and ("=" in line or ":" in line):
                in_documentation = True
    return yaml.safe_load("".join(stub).strip().rstrip("."))


def _short_description(path: Path) -> tuple[str | None, bool]:
    """The file's short description (None when it has none), and whether reading it failed."""
    try:
        doc = read_docstub(path)
    except (OSError, yaml.YAMLError):
        return None, True
    if not doc or not isinstance(doc, dict):
        return (None if doc is None else "UNDOCUMENTED"), False
    return str(doc.get("short_description", "INVALID SHORT DESCRIPTION")).strip(), False


def description(listed: Listed) -> str:
    """What ``-l`` shows beside a name: the short description of its file, or of the documentation file named
    after it beside that file (a filter or test), or Jinja's; UNDOCUMENTED otherwise."""
    found: str | None = None
    if listed.path is not None:
        found, _ = _short_description(listed.path)
        if found is None:
            base = listed.path.with_name(listed.name.rsplit(".", 1)[-1] + listed.path.suffix)
            for suffix in (".py", *YAML_SUFFIXES):
                candidate = base.with_suffix(suffix)
                if candidate.is_file():
                    found, _ = _short_description(candidate)
    if found is None and listed.jinja_description:
        return listed.jinja_description
    return found or "UNDOCUMENTED"


def list_lines(entries: Mapping[str, str], columns: int, *, markup: bool = True) -> list[str]:
    """``NAME  TEXT`` lines as ansible-doc aligns and cuts them; deprecated builtin names (``_NAME``) last."""
    if not entries:
        return []
    width = max(len(name) for name in entries)
    limit = columns - width - 5
    lines: list[str] = []
    deprecated: list[str] = []
    for name in sorted(entries):
        text = tty_ify(entries[name]) if markup else entries[name]
        if markup and len(text) > limit:  # a description is cut to the width, a file's path never
            text = text[:limit] + "..."
        parts = name.split(".")
        line = f"{name:<{width}} {text:<{limit}}"
        if parts[-1].startswith("_") and name.startswith((f"{BUILTIN}.", f"{LEGACY}.")):
            parts[-1] = parts[-1][1:]
            deprecated.append(f"{'.'.join(parts):<{width}} {text:<{limit}}")
        else:
            lines.append(line)
    if deprecated:
        lines += ["\nDEPRECATED:", *deprecated]
    return lines
