"""``provisioning-doc -t role``: roles documented by their argument specs, found and shown as ansible-doc does.

A role is documented when its ``meta/`` holds ``argument_specs.yml`` (or ``main.yml``, read only when there is no
``argument_specs`` file); each entry point of its ``argument_specs`` is a section of its page. Roles are looked
for in the roles path (``-r`` first), in ``roles/`` beside ``--playbook-dir`` and in that folder itself (the first
role of a name wins), and in the collections' ``roles/`` folders.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from runner.cli.doc_list import installed_collections
from runner.cli.doc_text import (
    dump_yaml,
    examples_lines,
    field_lines,
    indent_lines,
    seealso_lines,
    text_limit,
    tty_ify,
    warp_fill,
)
from runner.cli.doc_text import version_added as format_version_added
from runner.errors import OptionError

EXTENSIONS = (".yml", ".yaml", ".json")
METADATA_FILES = tuple(f"main{ext}" for ext in EXTENSIONS)
ARGSPEC_FILES = (*(f"argument_specs{ext}" for ext in EXTENSIONS), *METADATA_FILES)
ROLE_INDENT = " " * 10


@dataclass(frozen=True)
class FoundRole:
    name: str
    collection: str | None
    path: Path  # the role's folder, or the collection's (as ansible-doc names a collection role's place)

    @property
    def fqcn(self) -> str:
        return f"{self.collection}.{self.name}" if self.collection else self.name

    @property
    def meta(self) -> Path:
        return self.path / "roles" / self.name / "meta" if self.collection else self.path / "meta"


def roles_search_path(roles_paths: Iterable[Path], playbook_dir: Path | None) -> list[Path]:
    """``roles/`` beside the playbooks, the roles path, then the playbooks' folder itself (as plays find roles)."""
    found = list(roles_paths)
    if playbook_dir is not None:
        if (playbook_dir / "roles").is_dir():
            found.insert(0, playbook_dir / "roles")
        found.append(playbook_dir)
    return found


def _has_spec(meta: Path) -> bool:
    return any((meta / name).exists() for name in ARGSPEC_FILES)


def normal_roles(paths: Iterable[Path], names: Iterable[str] | None = None) -> list[FoundRole]:
    wanted = set(names) if names is not None else None
    found: dict[str, FoundRole] = {}
    for path in paths:
        if not path.is_dir():
            continue
        for entry in sorted(path.iterdir()):
            if _has_spec(entry / "meta") and (wanted is None or entry.name in wanted):
                found.setdefault(entry.name, FoundRole(entry.name, None, entry))
    return list(found.values())


def collection_roles(
    collections_paths: Iterable[Path], names: Iterable[str] | None = None, collections: Iterable[str] | None = None
) -> list[FoundRole]:
    wanted = list(names) if names is not None else None
    only = set(collections) if collections is not None else None
    found = []
    for collection, path in installed_collections(collections_paths).items():
        if (only is not None and collection not in only) or not (path / "roles").is_dir():
            continue
        for entry in sorted((path / "roles").iterdir()):
            if not _has_spec(entry / "meta"):
                continue
            if wanted is None or any(name in (entry.name, f"{collection}.{entry.name}") for name in wanted):
                found.append(FoundRole(entry.name, collection, path))
    return found


def _load(role: FoundRole, files: Iterable[str]) -> dict[str, Any]:
    for name in files:
        path = role.meta / name
        if path.exists():
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
    return {}


def argument_specs(role: FoundRole) -> dict[str, Any]:
    """The role's ``argument_specs``; ``{"error": ...}`` when its file cannot be read."""
    try:
        return dict(_load(role, ARGSPEC_FILES).get("argument_specs") or {})
    except (OSError, yaml.YAMLError) as exc:
        return {"error": f"Failed to process role ({role.name}): {exc}"}


def _galaxy_info(role: FoundRole) -> dict[str, Any]:
    try:
        info = _load(role, METADATA_FILES).get("galaxy_info")
    except (OSError, yaml.YAMLError):
        return {}
    return dict(info) if isinstance(info, dict) else {}


def role_list(roles: Iterable[FoundRole], fail_on_errors: bool, warn: Callable[[str], None]) -> dict[str, Any]:
    """``-t role -l``: each role with its galaxy information and the short description of each entry point."""
    result: dict[str, Any] = {}
    for role in roles:
        specs = argument_specs(role)
        if "error" in specs:
            if fail_on_errors:
                raise OptionError(specs["error"])
            warn(f"Skipping role ({role.name}) due to: {specs['error']}")
            continue
        summary = _galaxy_info(role) or {"description": "UNDOCUMENTED"}
        summary["entry_points"] = {name: (spec or {}).get("short_description", "") for name, spec in specs.items()}
        if role.collection:
            summary["collection"] = role.collection
        result[role.fqcn] = summary
    return result


def role_docs(roles: Iterable[FoundRole], entry_point: str | None, fail_on_errors: bool) -> dict[str, Any]:
    """Each role's documentation: its place, collection and entry points (only ``entry_point`` when given)."""
    result: dict[str, Any] = {}
    for role in roles:
        specs = argument_specs(role)
        if "error" in specs:
            if fail_on_errors:
                raise OptionError(specs["error"])
            result[role.fqcn] = {"path": os.path.abspath(role.path), "collection": role.collection,
                                 "error": specs["error"]}
            continue
        points = {name: dict(spec or {}) for name, spec in specs.items() if entry_point in (None, name)}
        if points:
            result[role.fqcn] = {"path": os.path.abspath(role.path), "collection": role.collection,
                                 "entry_points": points}
    return result


def available_roles_lines(roles: Mapping[str, Any], columns: int) -> list[str]:
    """``-t role -l`` as text: each role, and under it each entry point with its short description."""
    points = {name for role in roles.values() for name in role["entry_points"]}
    width = max((len(name) for name in points), default=0)
    limit = columns - width - 5
    lines = []
    for name in sorted(roles):
        entry_points = roles[name]["entry_points"]
        if not entry_points:
            lines.append(name)
            continue
        lines += [f"{name}:", "  specs:"]
        for point, description in entry_points.items():
            if len(description) > limit:
                description = description[:limit] + "..."
            lines.append(f"    {point:<{width}}: {description}")
    return lines


def role_text(name: str, role: Mapping[str, Any], columns: int) -> list[str]:
    """A role's page, each entry point a section (ansible-core 2.21's layout)."""
    limit = text_limit(columns)
    text = [f"> ROLE: *{name}* ({role.get('path')})"]
    for point, spec in role["entry_points"].items():
        doc = dict(spec)
        summary = f"- {doc['short_description']}" if doc.get("short_description") else ""
        text += ["", f"ENTRY POINT: *{point}* {summary}", ""]
        added = doc.pop("version_added", None)
        if added:
            text.append(f"ADDED IN: {format_version_added(added)}\n")
        if doc.get("description"):
            descriptions = doc["description"] if isinstance(doc["description"], list) else [doc["description"]]
            for description in descriptions:
                text.append(
                    warp_fill(
                        tty_ify(str(description)), limit, initial_indent=ROLE_INDENT, subsequent_indent=ROLE_INDENT
                    )
                )
            text.append("")
        if doc.get("options"):
            text.append("Options (= indicates it is required):")
            text += field_lines(doc.pop("options"), limit, ROLE_INDENT)
        notes = doc.pop("notes", None)
        if notes:
            text += ["", "NOTES:"]
            text += [
                warp_fill(
                    tty_ify(str(note)), limit - 6, initial_indent=ROLE_INDENT[:-2] + "* ", subsequent_indent=ROLE_INDENT
                )
                for note in notes
            ]
        seealso = doc.pop("seealso", None)
        if seealso:
            text += ["", "SEE ALSO:", *seealso_lines(seealso, limit, ROLE_INDENT)]
        if "author" in doc:
            author = doc["author"]
            text.append("")
            if isinstance(author, str):
                text.append(f"AUTHOR: {warp_fill(tty_ify(author), limit - 8, subsequent_indent=ROLE_INDENT)}")
            elif isinstance(author, list | tuple):
                text.append(f"AUTHOR: {', '.join(str(item) for item in author)}")
            else:
                text.append(indent_lines(dump_yaml({"AUTHOR": author}), ""))
        text += examples_lines(doc.pop("examples", None))
    return text


@dataclass(frozen=True)
class Roles:
    """Where roles are found for one command: the roles search path, the collections path, the entry point."""

    search_path: list[Path]
    collections_paths: list[Path]
    entry_point: str | None = None

    def listing(self, collections: list[str] | None) -> dict[str, Any]:
        """The roles of the collections named (all, and the others too, when None), as ``-l`` lists them."""
        found = [*(normal_roles(self.search_path) if collections is None else []),
                 *collection_roles(self.collections_paths, collections=collections)]
        return role_list(found, False, _warn)

    def docs(self, names: Iterable[str], fail_on_errors: bool) -> dict[str, Any]:
        names = list(names)
        found = [*normal_roles(self.search_path, names), *collection_roles(self.collections_paths, names)]
        return role_docs(found, self.entry_point, fail_on_errors)

    def dump(self, collections: Iterable[str], fail_on_errors: bool) -> dict[str, Any]:
        """--metadata-dump's roles: the documentation of each role listed."""
        filters = list(collections) or None
        found = [*(normal_roles(self.search_path) if filters is None else []),
                 *collection_roles(self.collections_paths, collections=filters)]
        listed = role_list(found, fail_on_errors, _warn)
        return self.docs(listed, fail_on_errors)


def _warn(message: str) -> None:
    from runner.cli.project import warn

    warn(message)
