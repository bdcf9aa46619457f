"""What ansible-core adds to a plugin's documentation once it is read: the collection every ``version_added`` and
removal version belongs to, and the documentation fragments it extends (``extends_documentation_fragment``).

A fragment ``NS.COLL.NAME`` is the ``ModuleDocFragment`` class of the collection's ``plugins/doc_fragments/NAME.py``
(``NAME`` alone: ansible-core's own, or one in ``ANSIBLE_DOC_FRAGMENT_PLUGINS``); ``FRAGMENT.VAR`` names another
of its strings than ``DOCUMENTATION``. Its ``options`` and ``attributes`` join the plugin's (the plugin's own win),
its notes and see-also entries are appended, and any other section is merged as ansible-core merges it.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

import yaml

from runner.ansible_api.collections import collection_dir, split_fqcn
from runner.ansible_api.core import installed_ansible_core
from runner.cli.doc_sources import string_constants
from runner.errors import OptionError

FRAGMENT_CLASS = "ModuleDocFragment"
FRAGMENTABLE = ("DOCUMENTATION", "RETURN")  # the strings a plugin's fragments extend
Callback = Callable[[MutableMapping[str, Any], str], None]


def add_collection_to_versions(doc: Any, collection: str, *, is_module: bool, return_docs: bool = False) -> None:
    """Name ``collection`` beside each version and date of ``doc`` that names none (ansible-core's
    ``add_collection_to_versions_and_dates``): which options, deprecations and return values it reaches differs
    for modules and other plugins, as there."""

    def add(where: MutableMapping[str, Any], field: str) -> None:
        where.setdefault(field, collection)

    _versions_and_dates(doc, is_module, return_docs, add)


def _versions_and_dates(doc: Any, is_module: bool, return_docs: bool, callback: Callback) -> None:
    def deprecation(deprecated: Any, top_level: bool = False) -> None:
        field = "removed_from_collection" if top_level else "collection_name"
        if not isinstance(deprecated, MutableMapping):
            return
        if (is_module or top_level) and "removed_in" in deprecated:
            callback(deprecated, field)
        if "removed_at_date" in deprecated:
            callback(deprecated, field)
        if not (is_module or top_level) and "version" in deprecated:
            callback(deprecated, field)

    def specifiers(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, MutableMapping):
                if "version_added" in item:
                    callback(item, "version_added_collection")
                deprecation(item.get("deprecated"))

    def options(values: Mapping[str, Any]) -> None:
        for option in values.values():
            if not isinstance(option, MutableMapping):
                continue
            if "version_added" in option:
                callback(option, "version_added_collection")
            if not is_module:
                for source in ("env", "ini", "vars"):
                    if isinstance(option.get(source), list):
                        specifiers(option[source])
                deprecation(option.get("deprecated"))
            if isinstance(option.get("suboptions"), MutableMapping):
                options(option["suboptions"])

    def return_values(values: Mapping[str, Any]) -> None:
        for value in values.values():
            if isinstance(value, MutableMapping):
                if "version_added" in value:
                    callback(value, "version_added_collection")
                if isinstance(value.get("contains"), MutableMapping):
                    return_values(value["contains"])

    if not doc or not isinstance(doc, MutableMapping):
        return
    if return_docs:
        return_values(doc)
        return
    if "version_added" in doc:
        callback(doc, "version_added_collection")
    deprecation(doc.get("deprecated"), top_level=True)
    if isinstance(doc.get("options"), MutableMapping):
        options(doc["options"])
    if isinstance(doc.get("attributes"), MutableMapping):
        for attribute in doc["attributes"].values():
            if isinstance(attribute, MutableMapping) and "version_added" in attribute:
                callback(attribute, "version_added_collection")


def _fragment_file(name: str, collections_paths: Iterable[Path], env: Mapping[str, str]) -> tuple[Path, str] | None:
    """The file of fragment ``name`` and the collection it belongs to ('' for a fragment outside collections)."""
    fqcn = split_fqcn(name)
    if fqcn is not None and not name.startswith("ansible.builtin."):
        base = collection_dir(fqcn[0], collections_paths)
        folders = [base / "plugins" / "doc_fragments"] if base is not None else []
        stem, collection = fqcn[1], fqcn[0]
    else:
        stem, collection = name.removeprefix("ansible.builtin."), ""
        configured = env.get("ANSIBLE_DOC_FRAGMENT_PLUGINS", "")
        folders = [Path(os.path.expanduser(part)) for part in configured.split(os.pathsep) if part]
        core = installed_ansible_core()
        if core is not None:
            folders.append(core / "plugins" / "doc_fragments")
    for folder in folders:
        path = folder / f"{stem.replace('.', '/')}.py"
        if path.is_file():
            return path, collection
    return None


def _fragment_strings(path: Path) -> dict[str, str]:
    """The string constants of the file's ``ModuleDocFragment`` class, read without importing it."""
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (OSError, SyntaxError, ValueError) as exc:
        raise OptionError(f"cannot read the documentation fragment {path}: {exc}") from None
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == FRAGMENT_CLASS:
            found.update(string_constants(node.body))
    return found


def _load_fragment(
    slug: str, collections_paths: list[Path], env: Mapping[str, str], section: str
) -> tuple[Any, str] | None:
    """The fragment's YAML for ``section`` and its collection; a name whose last part is not a fragment names
    another of its strings."""
    candidates = [(slug, section)]
    if "." in slug:
        name, var = slug.rsplit(".", 1)
        candidates.append((name, var.upper()))
    for name, var in candidates:
        found = _fragment_file(name, collections_paths, env)
        if found is None:
            continue
        text = _fragment_strings(found[0]).get(var)
        if text is None:
            return None if var not in FRAGMENTABLE else ({}, found[1])
        return yaml.safe_load(text) or {}, found[1]
    return None


def merge_fragment(target: MutableMapping[str, Any], source: Mapping[str, Any]) -> None:
    """ansible-core's merge: a mapping keeps the target's entries over the fragment's, lists are joined (sorted,
    without repeats); any other section present in both is an error."""
    for key, value in source.items():
        if key in target:
            if isinstance(target[key], MutableMapping):
                value = {**value, **target[key]}
            elif isinstance(target[key], list):
                value = sorted(frozenset(value + target[key]))
            else:
                raise OptionError(f"Attempt to extend a documentation fragment, invalid type for {key}")
        target[key] = value


def _merge_documentation(doc: MutableMapping[str, Any], fragment: dict[str, Any], slug: str, path: Path) -> None:
    for key in ("notes", "seealso"):
        extra = fragment.pop(key, None)
        if extra:
            doc.setdefault(key, []).extend(extra)
    if "options" not in fragment and "attributes" not in fragment:
        raise OptionError(f"missing options or attributes in fragment ({slug}), possibly misformatted?: {path}")
    for key in ("options", "attributes"):
        if key in fragment:
            if key in doc:
                merge_fragment(doc[key], fragment.pop(key))
            else:
                doc[key] = fragment.pop(key)


def add_fragments(
    doc: MutableMapping[str, Any],
    path: Path,
    collections_paths: list[Path],
    *,
    is_module: bool,
    section: str = "DOCUMENTATION",
    env: Mapping[str, str] | None = None,
) -> None:
    """Extend ``doc`` (the documentation, or with ``section="RETURN"`` the return values, as ansible-core 2.21
    does) with the fragments it names (``extends_documentation_fragment``): each fragment's string of that
    section."""
    env = os.environ if env is None else env
    slugs = doc.pop("extends_documentation_fragment", None) or []
    if isinstance(slugs, str):
        slugs = slugs.split(",")
    unknown = []
    for slug in (str(item).strip() for item in slugs):
        loaded = _load_fragment(slug, collections_paths, env, section)
        if loaded is None:
            unknown.append(slug)
            continue
        fragment, collection = loaded
        if not isinstance(fragment, dict):
            raise OptionError(f"documentation fragment {slug} of {path} is not a mapping")
        add_collection_to_versions(fragment, collection, is_module=is_module, return_docs=section == "RETURN")
        if section == "DOCUMENTATION":  # notes, see-also, options and attributes are merged one by one
            _merge_documentation(doc, fragment, slug, path)
        merge_fragment(doc, fragment)
    if unknown:
        raise OptionError(f"unknown doc_fragment(s) in file {path}: {', '.join(unknown)}")
