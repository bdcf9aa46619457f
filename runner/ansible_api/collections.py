"""Modules of Ansible collections by their fully qualified names (``NS.COLL.NAME``).

A collection module that has a native module of the same arguments and behaviour runs natively (the table below,
documented in docs/collections.md); any other is looked up in the collections path, in ansible-core's layout
``PATH/ansible_collections/NS/COLL/plugins/modules/NAME.py``, and runs through the compatibility layer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

# Collection modules whose native module takes the same arguments and does the same thing.
NATIVE_EQUIVALENTS: dict[str, str] = {
    "ansible.posix.authorized_key": "authorized_key",
    "ansible.posix.sysctl": "sysctl",
    "community.general.archive": "archive",
    "community.general.ini_file": "ini_file",
}
# Names that always mean the native modules (ansible-core's own, or this runner's).
BUILTIN_COLLECTIONS = ("ansible.builtin", "ansible.legacy", "provisioning.builtin")
_FQCN = re.compile(r"^([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)$")


def split_fqcn(name: str) -> tuple[str, str] | None:
    """(``NS.COLL``, module name) of a fully qualified name, or None when ``name`` is not one."""
    match = _FQCN.match(name)
    if match is None:
        return None
    return f"{match[1]}.{match[2]}", match[3]


def collection_dir(collection: str, collections_paths: Iterable[Path]) -> Path | None:
    """The directory of ``collection`` (``NS.COLL``) in the first collections path that has it."""
    namespace, coll = collection.split(".")
    for base in collections_paths:
        path = base / "ansible_collections" / namespace / coll
        if path.is_dir():
            return path
    return None


def find_collection_plugin(collection: str, kind: str, name: str, collections_paths: Iterable[Path]) -> Path | None:
    """The file of plugin ``name`` of ``kind`` (``modules``, ``lookup``, ``action``...) of ``collection`` in the
    first collections path that has it."""
    namespace, coll = collection.split(".")
    for base in collections_paths:
        path = base / "ansible_collections" / namespace / coll / "plugins" / kind / f"{name}.py"
        if path.is_file():
            return path
    return None


def find_collection_module(collection: str, name: str, collections_paths: Iterable[Path]) -> Path | None:
    """The file of module ``name`` of ``collection`` in the first collections path that has it."""
    return find_collection_plugin(collection, "modules", name, collections_paths)
