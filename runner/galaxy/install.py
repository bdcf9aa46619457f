"""Installing roles and collections: from a requirements file (with dependencies and a lock), or one by reference.

Everything is resolved first, then every archive is fetched and checked (digest, archive rules), and only then
is anything installed: a tampered blob or an unsafe archive stops the install before any role or collection
directory changes. One whose installed digest is already the chosen one is left alone unless ``force``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from runner.galaxy.catalog import StoreCatalog
from runner.galaxy.collection_requirements import (
    check_unique_collections,
    is_named_by_content,
    load_collection_requirements,
)
from runner.galaxy.context import GalaxyContext
from runner.galaxy.errors import LockMismatchError
from runner.galaxy.kinds import CollectionKind, ContentKind, RoleKind
from runner.galaxy.lockfile import Lock, LockedRole, lock_path_for, read_lock, write_lock
from runner.galaxy.requirements import Requirement, fingerprint, load_requirements, portable_source
from runner.galaxy.resolver import ResolvedRole, Resolver
from runner.galaxy.sources import SourceRef
from runner.galaxy.store import RoleStore
from runner.util.versions import ANY, ConstraintError, parse_constraint

Echo = Callable[[str], None]
Fetched = list[tuple[ResolvedRole, Path]]


@dataclass
class InstallReport:
    roles: list[ResolvedRole] = field(default_factory=list)
    collections: list[ResolvedRole] = field(default_factory=list)
    installed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    lock_path: Path | None = None
    lock_written: bool = False
    warnings: list[str] = field(default_factory=list)


class KindInstaller:
    """Resolving, fetching and installing one kind of content (roles or collections)."""

    def __init__(self, context: GalaxyContext, kind: ContentKind, echo: Echo):
        self.context = context
        self.kind = kind
        self.store = RoleStore(context, kind.artifact)
        self.catalog = StoreCatalog(self.store, kind)
        self.echo = echo

    def resolver(self, lock: Lock | None, lock_dir: Path, *, frozen: bool = False,
                 with_dependencies: bool = True) -> Resolver:
        return Resolver(self.catalog, self.context.reference, lock=lock, lock_dir=lock_dir, frozen=frozen,
                        with_dependencies=with_dependencies)

    def named_by_content(self, roots: list[Requirement], lock: Lock | None, lock_dir: Path) -> list[Requirement]:
        """Collections from git, tarballs and directories under the names their metadata gives: the lock's name
        for the same source (so a locked install fetches nothing), else the fetched content's."""
        named = []
        for root in roots:
            if is_named_by_content(root):
                source = portable_source(root, lock_dir)
                locked = next((entry for entry in (lock.roles if lock else []) if entry.source == source
                               and entry.version == root.version), None)
                name = locked.name if locked is not None else self.catalog.candidate(root.origin).name
                root = replace(root, name=name or root.name)
            named.append(root)
        check_unique_collections(named)
        return named

    def fetch(self, resolved: list[ResolvedRole], scratch: Path, force: bool) -> Fetched:
        """The archives of what is not installed yet (or everything with ``force``), fetched and checked."""
        pending = [item for item in resolved if force or self.kind.installed_digest(item.name) != item.digest]
        for item in resolved:
            if item not in pending:
                self.echo(f"- {item.name} ({item.version or 'local'}) is already installed, skipping.")
        return [(item, self._archive(item, scratch)) for item in pending]

    def put(self, fetched: Fetched) -> list[str]:
        for item, archive in fetched:
            self.echo(f"- extracting {item.name} to {self.kind.target(item.name)}")
            self.kind.install(archive, item.name, item.version, item.source, item.digest)
            self.echo(f"- {item.name} ({item.version or 'local'}) was installed successfully")
        return [item.name for item, _ in fetched]

    def close(self) -> None:
        self.catalog.sources.close()

    def _archive(self, item: ResolvedRole, scratch: Path) -> Path:
        if isinstance(item.origin, Path):
            path = scratch / f"{item.name}.tar.gz"
            path.write_bytes(self.catalog.local_archive(item.origin).data)
            return path
        if isinstance(item.origin, SourceRef):
            return self.catalog.sources.fetch(item.origin.pinned(commit=item.commit, digest=item.digest)).archive
        artifact = self.store.artifact(item.ref)
        if self.store.cache.find(artifact.manifest.layer.digest) is None:
            self.echo(f"- downloading {self.kind.artifact.label} '{item.name}', version {item.version} from "
                      f"{item.source}")
        return self.store.archive(artifact)

    @staticmethod
    def locked(item: ResolvedRole, lock_dir: Path) -> LockedRole:
        source = portable_source(Requirement(item.name, item.origin), lock_dir)
        return LockedRole(item.name, source, item.version, item.digest,
                          tuple(dependency.name for dependency in item.dependencies), item.commit)


class Installer:
    def __init__(self, context: GalaxyContext, echo: Echo = lambda _: None):
        self.context = context
        self.roles = KindInstaller(context, RoleKind(context), echo)
        self.collections = KindInstaller(context, CollectionKind(context), echo)

    def install_requirements(self, requirements_path: Path, *, frozen: bool = False, update: bool = False,
                             with_dependencies: bool = True, force: bool = False) -> InstallReport:
        try:
            return self._install_requirements(requirements_path, frozen=frozen, update=update,
                                              with_dependencies=with_dependencies, force=force)
        finally:
            self.roles.close()
            self.collections.close()

    def _install_requirements(self, requirements_path: Path, *, frozen: bool, update: bool,
                              with_dependencies: bool, force: bool) -> InstallReport:
        roles, warnings = load_requirements(requirements_path, self.context.reference)
        collections = load_collection_requirements(requirements_path, self.context.reference)
        lock_path = lock_path_for(requirements_path)
        lock = read_lock(lock_path)
        lock_dir = lock_path.parent
        wanted = fingerprint(roles, lock_dir, collections)
        if frozen:
            if lock is None:
                raise LockMismatchError(f"--frozen installs what {lock_path} lists, and there is no such file: run "
                                        "install without --frozen first")
            if lock.requirements != wanted:
                raise LockMismatchError(f"{requirements_path} changed since {lock_path} was written: run install "
                                        "without --frozen to update the lock")
        kept = None if update else lock
        collections_lock = kept.of_collections() if kept is not None else None
        collections = self.collections.named_by_content(collections, collections_lock, lock_dir)
        report = InstallReport(warnings=warnings, lock_path=lock_path)
        report.roles = self.roles.resolver(kept, lock_dir, frozen=frozen, with_dependencies=with_dependencies) \
            .resolve(roles) if roles else []
        report.collections = self.collections.resolver(collections_lock, lock_dir, frozen=frozen,
                                                       with_dependencies=with_dependencies).resolve(collections) \
            if collections else []
        with tempfile.TemporaryDirectory(prefix="provisioning-galaxy-") as scratch:
            # Everything fetched and checked before anything is installed.
            fetched_roles = self.roles.fetch(report.roles, Path(scratch), force)
            fetched_collections = self.collections.fetch(report.collections, Path(scratch), force)
            report.installed = self.roles.put(fetched_roles) + self.collections.put(fetched_collections)
        report.unchanged = [item.name for item in [*report.roles, *report.collections]
                            if item.name not in report.installed]
        if not frozen:
            new_lock = Lock(wanted, [KindInstaller.locked(role, lock_dir) for role in report.roles],
                            [KindInstaller.locked(item, lock_dir) for item in report.collections])
            report.lock_written = write_lock(lock_path, new_lock)
        return report

    def install_one(self, text: str, *, name: str | None = None, force: bool = False,
                    collection: bool = False) -> InstallReport:
        """``role pull`` / ``collection pull``: one, by reference, without dependencies and without a lock."""
        installer = self.collections if collection else self.roles
        ref = self.context.reference(text)
        digest = ref.digest
        try:
            constraint = parse_constraint(None if digest else ref.version)
        except ConstraintError:  # not a constraint but a plain tag ("stable"): what it names now
            constraint, digest = ANY, installer.store.artifact(ref).digest
        requirement = Requirement(name=name or ref.name, origin=ref.at(), constraint=constraint, digest=digest,
                                  requested_by=text)
        resolved = installer.resolver(None, Path.cwd(), with_dependencies=False).resolve([requirement])
        with tempfile.TemporaryDirectory(prefix="provisioning-galaxy-") as scratch:
            installed = installer.put(installer.fetch(resolved, Path(scratch), force))
        if collection:
            return InstallReport(collections=resolved, installed=installed)
        return InstallReport(roles=resolved, installed=installed)
