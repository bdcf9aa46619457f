"""What differs between installing roles and collections, behind one interface the installer uses for both.

Resolution, locking, the cache and the sources are shared; a kind says how to recognise its content in a
directory or an unpacked tarball, how to pack it for installing, how to read its name, version and
dependencies, where it is installed and how to put it there.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from runner.galaxy.archive import RoleArchive, build_archive
from runner.galaxy.artifact import COLLECTION, ROLE, ArtifactKind, Dependency, dependencies_of, read_role_meta
from runner.galaxy.collection_build import build_collection
from runner.galaxy.collection_meta import GALAXY_YML, MANIFEST_JSON, galaxy_yml_path, is_collection_dir, read_collection
from runner.galaxy.context import GalaxyContext
from runner.galaxy.installed import InstalledRole, install_archive, read_installed
from runner.galaxy.installed_collections import (
    InstalledCollection,
    collection_path,
    install_collection,
    read_installed_collection,
)
from runner.galaxy.source_fetch import is_role_dir, is_role_metadata


@dataclass(frozen=True)
class Description:
    """What a directory holds: its own name (a collection's NAMESPACE.NAME; None for a role, named by its
    requirement), version and dependencies."""

    name: str | None
    version: str | None
    dependencies: tuple[Dependency, ...]


class ContentKind(Protocol):
    artifact: ArtifactKind

    def is_content(self, tree: Path) -> bool: ...

    def pack(self, tree: Path) -> RoleArchive: ...

    def is_metadata(self, name: str) -> bool: ...

    def describe(self, tree: Path) -> Description: ...

    def installed_digest(self, name: str) -> str | None: ...

    def target(self, name: str) -> Path: ...

    def install(self, archive: Path, name: str, version: str | None, source: str, digest: str) -> Path: ...


class RoleKind:
    artifact = ROLE

    def __init__(self, context: GalaxyContext):
        self.context = context

    def is_content(self, tree: Path) -> bool:
        return is_role_dir(tree)

    def pack(self, tree: Path) -> RoleArchive:
        return build_archive(tree)

    def is_metadata(self, name: str) -> bool:
        return is_role_metadata(name)

    def describe(self, tree: Path) -> Description:
        meta = read_role_meta(tree)
        version = meta.galaxy_info.get("version")
        return Description(None, None if version is None else str(version), tuple(dependencies_of(meta)))

    def installed_digest(self, name: str) -> str | None:
        return read_installed(self.target(name)).digest

    def target(self, name: str) -> Path:
        return self.context.install_dir / name

    def install(self, archive: Path, name: str, version: str | None, source: str, digest: str) -> Path:
        return install_archive(archive, self.context.install_dir,
                               InstalledRole(name, self.target(name), version, source, digest),
                               self.context.max_archive_size)


class CollectionKind:
    artifact = COLLECTION

    def __init__(self, context: GalaxyContext):
        self.context = context

    def is_content(self, tree: Path) -> bool:
        return is_collection_dir(tree)

    def pack(self, tree: Path) -> RoleArchive:
        # A source tree is built as ansible-galaxy builds it; a built collection (MANIFEST.json) is kept as is.
        return build_collection(tree)[1] if galaxy_yml_path(tree) is not None else build_archive(tree)

    def is_metadata(self, name: str) -> bool:
        return name.removeprefix("./") in (MANIFEST_JSON, *GALAXY_YML)

    def describe(self, tree: Path) -> Description:
        found = read_collection(tree)
        return Description(found.fqcn, found.version, tuple(found.as_dependencies()))

    def installed_digest(self, name: str) -> str | None:
        return read_installed_collection(self.context.collections_install_dir, name).digest

    def target(self, name: str) -> Path:
        return collection_path(self.context.collections_install_dir, name)

    def install(self, archive: Path, name: str, version: str | None, source: str, digest: str) -> Path:
        directory = self.context.collections_install_dir
        return install_collection(archive, directory, InstalledCollection(name, self.target(name), version, source,
                                                                          digest), self.context.max_archive_size)
