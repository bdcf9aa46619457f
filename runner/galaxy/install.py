"""Installing roles: from a requirements file (with dependencies and a lock), or one role by reference.

Every role is resolved first, then every archive is fetched and checked (digest, archive rules), and only then
is anything installed: a tampered blob or an unsafe archive stops the install before any role directory
changes. A role whose installed digest is already the chosen one is left alone unless ``force``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from runner.galaxy.archive import RoleArchive, build_archive
from runner.galaxy.artifact import dependencies_of, read_role_meta
from runner.galaxy.context import GalaxyContext
from runner.galaxy.errors import LockMismatchError
from runner.galaxy.installed import InstalledRole, install_archive, read_installed
from runner.galaxy.lockfile import Lock, LockedRole, lock_path_for, read_lock, write_lock
from runner.galaxy.reference import RoleRef
from runner.galaxy.requirements import Requirement, fingerprint, load_requirements, portable_path
from runner.galaxy.resolver import Candidate, Origin, ResolvedRole, Resolver
from runner.galaxy.source_fetch import SourceFetcher
from runner.galaxy.sources import SourceRef
from runner.galaxy.store import RoleStore
from runner.util.versions import ANY, ConstraintError, parse_constraint

Echo = Callable[[str], None]


class StoreCatalog:
    """The resolver's catalog: registries through the content cache, local directories packed on the spot, git
    and tarball sources fetched into the cache."""

    def __init__(self, store: RoleStore):
        self.store = store
        self.sources = SourceFetcher(store.cache, store.context.max_archive_size)
        self._local: dict[Path, RoleArchive] = {}

    def versions(self, ref: RoleRef) -> list[str]:
        return self.store.versions(ref)

    def candidate(self, origin: Origin) -> Candidate:
        if isinstance(origin, SourceRef):
            fetched = self.sources.fetch(origin)
            meta = read_role_meta(fetched.tree)
            return Candidate(fetched.digest, origin.version, tuple(dependencies_of(meta)), fetched.commit)
        if isinstance(origin, Path):
            meta = read_role_meta(origin)
            version = meta.galaxy_info.get("version")
            return Candidate(self.local_archive(origin).digest, None if version is None else str(version),
                             tuple(dependencies_of(meta)))
        artifact = self.store.artifact(origin)
        return Candidate(artifact.digest, artifact.version, tuple(artifact.config.dependencies))

    def local_archive(self, directory: Path) -> RoleArchive:
        if directory not in self._local:
            self._local[directory] = build_archive(directory)
        return self._local[directory]


@dataclass
class InstallReport:
    roles: list[ResolvedRole] = field(default_factory=list)
    installed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    lock_path: Path | None = None
    lock_written: bool = False
    warnings: list[str] = field(default_factory=list)


class Installer:
    def __init__(self, context: GalaxyContext, echo: Echo = lambda _: None):
        self.context = context
        self.store = RoleStore(context)
        self.catalog = StoreCatalog(self.store)
        self.echo = echo

    def install_requirements(self, requirements_path: Path, *, frozen: bool = False, update: bool = False,
                             with_dependencies: bool = True, force: bool = False) -> InstallReport:
        try:
            return self._install_requirements(requirements_path, frozen=frozen, update=update,
                                              with_dependencies=with_dependencies, force=force)
        finally:
            self.catalog.sources.close()

    def _install_requirements(self, requirements_path: Path, *, frozen: bool, update: bool,
                              with_dependencies: bool, force: bool) -> InstallReport:
        roots, warnings = load_requirements(requirements_path, self.context.reference)
        lock_path = lock_path_for(requirements_path)
        lock = read_lock(lock_path)
        wanted = fingerprint(roots, lock_path.parent)
        if frozen:
            if lock is None:
                raise LockMismatchError(f"--frozen installs what {lock_path} lists, and there is no such file: run "
                                        "install without --frozen first")
            if lock.requirements != wanted:
                raise LockMismatchError(f"{requirements_path} changed since {lock_path} was written: run install "
                                        "without --frozen to update the lock")
        resolver = Resolver(self.catalog, self.context.reference, lock=None if update else lock,
                            lock_dir=lock_path.parent, frozen=frozen, with_dependencies=with_dependencies)
        report = self._install(resolver.resolve(roots), force)
        report.warnings, report.lock_path = warnings, lock_path
        if not frozen:
            report.lock_written = write_lock(lock_path, Lock(wanted, [self._locked(role, lock_path.parent)
                                                                      for role in report.roles]))
        return report

    def install_one(self, text: str, *, name: str | None = None, force: bool = False) -> InstallReport:
        """``role pull``: one role, by reference, without its dependencies and without a lock."""
        ref = self.context.reference(text)
        digest = ref.digest
        try:
            constraint = parse_constraint(None if digest else ref.version)
        except ConstraintError:  # not a constraint but a plain tag ("stable"): the role it names now
            constraint, digest = ANY, self.store.artifact(ref).digest
        requirement = Requirement(name=name or ref.name, origin=ref.at(), constraint=constraint, digest=digest,
                                  requested_by=text)
        resolver = Resolver(self.catalog, self.context.reference, with_dependencies=False)
        return self._install(resolver.resolve([requirement]), force)

    def _install(self, roles: list[ResolvedRole], force: bool) -> InstallReport:
        report = InstallReport(roles=roles)
        roles_dir = self.context.install_dir
        pending = [role for role in roles if force or read_installed(roles_dir / role.name).digest != role.digest]
        report.unchanged = [role.name for role in roles if role not in pending]
        for name in report.unchanged:
            role = next(r for r in roles if r.name == name)
            self.echo(f"- {name} ({role.version or 'local'}) is already installed, skipping.")
        with tempfile.TemporaryDirectory(prefix="provisioning-galaxy-") as scratch:
            # Everything fetched and checked before anything is installed.
            archives = [(role, self._archive(role, Path(scratch))) for role in pending]
            for role, archive in archives:
                self.echo(f"- extracting {role.name} to {roles_dir / role.name}")
                install_archive(archive, roles_dir, InstalledRole(role.name, roles_dir / role.name, role.version,
                                                                  role.source, role.digest),
                                self.context.max_archive_size)
                self.echo(f"- {role.name} ({role.version or 'local'}) was installed successfully")
                report.installed.append(role.name)
        return report

    def _archive(self, role: ResolvedRole, scratch: Path) -> Path:
        if isinstance(role.origin, Path):
            path = scratch / f"{role.name}.tar.gz"
            path.write_bytes(self.catalog.local_archive(role.origin).data)
            return path
        if isinstance(role.origin, SourceRef):
            return self.catalog.sources.fetch(role.origin.pinned(commit=role.commit, digest=role.digest)).archive
        artifact = self.store.artifact(role.ref)
        if self.store.cache.find(artifact.manifest.layer.digest) is None:
            self.echo(f"- downloading role '{role.name}', version {role.version} from {role.source}")
        return self.store.archive(artifact)

    @staticmethod
    def _locked(role: ResolvedRole, lock_dir: Path) -> LockedRole:
        source = role.source
        if isinstance(role.origin, Path):
            source = portable_path(role.origin, lock_dir)
        elif isinstance(role.origin, SourceRef) and role.origin.is_local:
            source = portable_path(Path(role.origin.location), lock_dir)
        return LockedRole(role.name, source, role.version, role.digest,
                          tuple(dependency.name for dependency in role.dependencies), role.commit)
