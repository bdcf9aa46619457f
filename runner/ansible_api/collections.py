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
    # ansible-core's internal collection (a shipped file with a leading underscore: no short name finds it)
    "ansible._protomatter.debug": "_protomatter_debug",
}
# Names that always mean the native modules (ansible-core's own, or this runner's).
BUILTIN_COLLECTIONS = ("ansible.builtin", "ansible.legacy", "provisioning.builtin")
# NS.COLL.NAME, where NAME may name a plugin in a sub-folder of the plugin type's folder: ``sub.name`` is
# ``plugins/modules/sub/name.py``, as ansible-core finds it
_FQCN = re.compile(r"^([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*)\.((?:[A-Za-z_][A-Za-z0-9_]*\.)*[A-Za-z_][A-Za-z0-9_]*)$")


def split_fqcn(name: str) -> tuple[str, str] | None:
    """(``NS.COLL``, plugin name) of a fully qualified name, or None when ``name`` is not one; the plugin name of
    one in a sub-folder keeps its dots (``sub.name``), as runtime.yml's routing names it."""
    match = _FQCN.match(name)
    if match is None:
        return None
    return f"{match[1]}.{match[2]}", match[3]


def collection_dir(collection: str, collections_paths: Iterable[Path]) -> Path | None:
    """The directory of ``collection`` (``NS.COLL``) in the first collections path that has it; None also for a
    name that is not ``NS.COLL``."""
    parts = collection.split(".")
    if len(parts) != 2:
        return None
    namespace, coll = parts
    for base in collections_paths:
        path = base / "ansible_collections" / namespace / coll
        if path.is_dir():
            return path
    return None


def find_collection_plugin(collection: str, kind: str, name: str, collections_paths: Iterable[Path]) -> Path | None:
    """The file of plugin ``name`` of ``kind`` (``modules``, ``lookup``, ``action``...) of ``collection``, in the
    first collections path that has the collection: a copy further down is masked, as in ansible-core."""
    base = collection_dir(collection, collections_paths)
    path = base / "plugins" / kind / f"{name.replace('.', '/')}.py" if base is not None else None
    return path if path is not None and path.is_file() else None


def find_collection_module(collection: str, name: str, collections_paths: Iterable[Path]) -> Path | None:
    """The file of module ``name`` of ``collection`` in the first collections path that has it."""
    return find_collection_plugin(collection, "modules", name, collections_paths)


# A fully qualified collection reference (a role, a playbook): NS.COLL, then subdirectories, then the resource.
_FQCR = re.compile(r"^\w+(\.\w+){2,}$")
PLAYBOOK_EXTENSIONS = (".yml", ".yaml")


def split_fqcr(name: str) -> tuple[str, tuple[str, ...], str] | None:
    """(``NS.COLL``, subdirectories, resource) of a fully qualified reference to a role or playbook
    (``ns.coll.role``, ``ns.coll.sub.dir.role``), as ansible-core's ``AnsibleCollectionRef`` splits it; None for any
    other name. A namespace or collection name that is not an identifier is none."""
    if not _FQCR.match(name):
        return None
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts[:2]):
        return None
    return f"{parts[0]}.{parts[1]}", tuple(parts[2:-1]), parts[-1]


def collection_search_path(configured: Iterable[Path], playbook_dirs: Iterable[Path] = ()) -> list[Path]:
    """The collections search path as ansible-core builds it: the ``collections`` folder beside each playbook
    first, then the configured entries; an entry naming an ``ansible_collections`` folder stands for its parent,
    and a configured entry without one is left out."""
    found: list[Path] = [Path(directory) / "collections" for directory in playbook_dirs]
    for entry in configured:
        path = Path(entry).expanduser()
        if path.name == "ansible_collections":
            path = path.parent
        if (path / "ansible_collections").is_dir():
            found.append(path)
    return list(dict.fromkeys(found))


def collection_of_path(path: Path, collections_paths: Iterable[Path]) -> str | None:
    """``NS.COLL`` of the collection ``path`` is in (``.../ansible_collections/NS/COLL/...``), when that is the
    collection the search path finds under that name (not one it masks); None for any other path."""
    parts = Path(path).absolute().parts
    if parts.count("ansible_collections") != 1:
        return None
    at = parts.index("ansible_collections")
    if len(parts) < at + 3:
        return None
    collection = f"{parts[at + 1]}.{parts[at + 2]}"
    if not all(part.isidentifier() for part in parts[at + 1:at + 3]):
        return None
    found = collection_dir(collection, collections_paths)
    if found is None or found.absolute() != Path(*parts[:at + 3]):
        return None
    return collection


def find_collection_playbook(name: str, collections_paths: Iterable[Path]) -> tuple[Path, str] | None:
    """The file and collection of a collection's playbook named ``NS.COLL[.SUBDIR...].NAME`` (``.yml`` or
    ``.yaml`` written or not), in its ``playbooks/`` folder, as ``import_playbook`` and ansible-playbook find
    it; None when ``name`` is not such a name or the collection has no such playbook."""
    extension = next((ext for ext in PLAYBOOK_EXTENSIONS if name.endswith(ext)), "")
    split = split_fqcr(name[:len(name) - len(extension)] if extension else name)
    if split is None:
        return None
    collection, subdirs, resource = split
    base = collection_dir(collection, collections_paths)
    if base is None:
        return None
    folder = base.joinpath("playbooks", *subdirs)
    candidates = [resource + extension] if extension else [resource, *(resource + ext for ext in PLAYBOOK_EXTENSIONS)]
    for candidate in candidates:
        if (folder / candidate).is_file():
            return folder / candidate, collection
    return None
