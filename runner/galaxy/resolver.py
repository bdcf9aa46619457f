"""One resolution for the whole tree of roles: each role once, at one version every requester accepts.

Resolution runs in rounds until nothing changes: gather what the requirements and the roles chosen so far ask
for, then choose, per role name, the highest version that satisfies every constraint on it (or the pinned
digest). A role the lock file names is kept at its locked version while that still satisfies everything, which
is what makes a second install need no registry; ``frozen`` turns any other choice into an error. There is no
backtracking: when no version satisfies everyone, the error names each requester and what it asked for.

Where a dependency comes from: its own ``src``, else the registry and namespace of the role that needs it
(a role from ``oci://reg/team/app`` needing ``redis`` gets ``oci://reg/team/redis``), else the configured ones.
A requirement file entry decides the source of a role for everyone. A git or tarball source has no versions to
choose from: it is what its ref (branch, tag, commit) or URL gives, locked by commit and digest.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from runner.errors import UserError
from runner.galaxy.artifact import Dependency
from runner.galaxy.errors import LockMismatchError, NotFoundError, ResolutionError
from runner.galaxy.lockfile import Lock, LockedRole
from runner.galaxy.reference import DIGEST, RoleRef
from runner.galaxy.requirements import ReferenceReader, Requirement
from runner.galaxy.sources import GIT, SourceRef, is_source, parse_source
from runner.util.versions import ConstraintError, parse_constraint

MAX_ROUNDS = 50


@dataclass(frozen=True)
class Candidate:
    """A role at one version: its digest, version and what it needs."""

    digest: str
    version: str | None
    dependencies: tuple[Dependency, ...] = ()
    commit: str | None = None  # of a git source
    name: str | None = None  # the name the content gives itself (a collection's NAMESPACE.NAME)


Origin = RoleRef | Path | SourceRef


class Catalog(Protocol):
    """Where the resolver learns about roles (the registries through the cache, or local directories)."""

    def versions(self, ref: RoleRef) -> list[str]:
        """The role's semver versions, lowest first."""
        ...

    def candidate(self, origin: Origin) -> Candidate:
        """The role at ``origin`` (a reference with a version or digest, a directory, or a source)."""
        ...


@dataclass(frozen=True)
class ResolvedRole:
    name: str
    origin: Origin
    version: str | None
    digest: str
    dependencies: tuple[Dependency, ...] = ()
    requested_by: tuple[str, ...] = ()
    from_lock: bool = False
    commit: str | None = None

    @property
    def source(self) -> str:
        return str(self.origin) if isinstance(self.origin, Path) else self.origin.source

    @property
    def ref(self) -> RoleRef:
        if not isinstance(self.origin, RoleRef):
            raise TypeError(f"{self.name} is a local directory")
        return self.origin.at(version=self.version, digest=self.digest)


@dataclass
class Resolver:
    catalog: Catalog
    reference: ReferenceReader
    lock: Lock | None = None
    lock_dir: Path = field(default_factory=Path.cwd)
    frozen: bool = False
    with_dependencies: bool = True
    _candidates: dict[str, Candidate] = field(default_factory=dict)
    _versions: dict[str, list[str]] = field(default_factory=dict)
    _roots: list[Requirement] = field(default_factory=list)

    def resolve(self, roots: list[Requirement]) -> list[ResolvedRole]:
        """Every role to install, dependencies before the roles that need them."""
        self._roots = roots
        chosen: dict[str, ResolvedRole] = {}
        for _ in range(MAX_ROUNDS):
            asks: dict[str, list[Requirement]] = defaultdict(list)
            for requirement in [*roots, *self._dependency_requirements(chosen.values())]:
                asks[requirement.name].append(requirement)
            new = {name: self._choose(name, requests) for name, requests in asks.items()}
            if _digests(new) == _digests(chosen):
                return _dependencies_first(roots, new)
            chosen = new
        raise ResolutionError("the requirements did not settle on one set of versions after "
                              f"{MAX_ROUNDS} rounds (dependencies that keep changing each other's versions)")

    # --- what is asked for ------------------------------------------------------------------------------------

    def _dependency_requirements(self, roles: Iterable[ResolvedRole]) -> list[Requirement]:
        if not self.with_dependencies:
            return []
        return [self._dependency(parent, dependency) for parent in roles for dependency in parent.dependencies]

    def _dependency(self, parent: ResolvedRole, dependency: Dependency) -> Requirement:
        asked = f"{parent.name} {parent.version or '(local)'}"
        root = next((root for root in self._roots if root.name == dependency.name), None)
        if dependency.source and is_source(dependency.source):
            return self._source_dependency(dependency, asked)
        try:
            if root is not None:  # the requirements file decides where it comes from, for everyone
                origin = root.origin
                if not isinstance(origin, RoleRef):
                    return Requirement(name=dependency.name, origin=origin, constraint=parse_constraint(
                        dependency.version), requested_by=asked, version=root.version)
            elif dependency.source:
                origin = self.reference(dependency.source, None)
            elif isinstance(parent.origin, RoleRef):
                namespace = parent.origin.repository.rpartition("/")[0]
                origin = RoleRef(parent.origin.registry, f"{namespace}/{dependency.name}" if namespace
                                 else dependency.name)
            else:
                origin = self.reference(dependency.name, None)
            version = (dependency.version or "").strip().lstrip("@")
            digest = version if DIGEST.match(version) else origin.digest
            constraint = parse_constraint(None if digest else (dependency.version or origin.version))
        except (UserError, ConstraintError) as exc:
            message = exc.message if isinstance(exc, UserError) else str(exc)
            raise ResolutionError(f"dependency '{dependency.name}' of {asked}: {message}") from None
        return Requirement(name=dependency.name, origin=origin.at(), constraint=constraint, digest=digest,
                           requested_by=asked)

    def _source_dependency(self, dependency: Dependency, asked: str) -> Requirement:
        try:
            origin = parse_source(dependency.source or "", None, dependency.version, self.lock_dir)
        except ValueError as exc:
            raise ResolutionError(f"dependency '{dependency.name}' of {asked}: {exc}") from None
        return Requirement(name=dependency.name, origin=origin, requested_by=asked, version=origin.version)

    # --- choosing ---------------------------------------------------------------------------------------------

    def _choose(self, name: str, asks: list[Requirement]) -> ResolvedRole:
        origin = self._origin(name, asks)
        requested_by = tuple(dict.fromkeys(ask.requested_by for ask in asks))
        locked = self._from_lock(name, origin, asks)
        if locked is not None:
            return ResolvedRole(name, origin, locked.version, locked.digest, self._candidate_at(
                origin, locked).dependencies, requested_by, from_lock=True, commit=locked.commit)
        if self.frozen:
            raise LockMismatchError(f"the lock file does not satisfy '{name}' ({_asks(asks)}): run install without "
                                    "--frozen to update it")
        if isinstance(origin, Path):
            candidate = self._candidate(origin)
            version = next((ask.version for ask in asks if ask.version), None) or candidate.version
            if version is not None:
                self._check(name, asks, version)
            return ResolvedRole(name, origin, version, candidate.digest, candidate.dependencies, requested_by)
        if isinstance(origin, SourceRef):
            candidate = self._candidate(origin)
            return ResolvedRole(name, origin, origin.version, candidate.digest, candidate.dependencies,
                                requested_by, commit=candidate.commit)
        pins = {ask.digest for ask in asks if ask.digest}
        if len(pins) > 1:
            raise ResolutionError(f"'{name}' is pinned to different digests:\n{_asks(asks, lines=True)}")
        if pins:
            candidate = self._candidate(origin.at(digest=pins.pop()))
            self._check(name, asks, candidate.version or "")
        else:
            try:
                versions = self._available(origin)
            except NotFoundError as exc:
                raise NotFoundError(f"{exc.message}\n{_asks(asks, lines=True)}") from None
            allowed = [version for version in versions if all(ask.constraint.allows(version) for ask in asks)]
            if not allowed:
                raise self._conflict(name, asks, versions)
            candidate = self._candidate(origin.at(version=allowed[-1]))
        return ResolvedRole(name, origin, candidate.version, candidate.digest, candidate.dependencies, requested_by)

    def _origin(self, name: str, asks: list[Requirement]) -> Origin:
        deciding = [ask for ask in asks if any(ask is root for root in self._roots)] or asks
        sources = {ask.source for ask in deciding}
        if len(sources) > 1:
            listing = "\n".join(f"  {ask.requested_by} asks for {ask.source}" for ask in deciding)
            raise ResolutionError(f"'{name}' is asked for from different places:\n{listing}")
        return deciding[0].origin

    def _from_lock(self, name: str, origin: Origin, asks: list[Requirement]) -> LockedRole | None:
        locked = self.lock.get(name) if self.lock is not None else None
        if locked is None or self._locked_source(locked) != (str(origin) if isinstance(origin, Path)
                                                              else origin.source):
            return None
        if any(ask.digest and ask.digest != locked.digest for ask in asks):
            return None
        if isinstance(origin, Path):
            # A directory can change under the lock: it is only what was locked if it still packs the same.
            return locked if self._candidate(origin).digest == locked.digest else None
        if isinstance(origin, SourceRef):
            if origin.is_local:  # a local tarball, like a directory, is what was locked while it is the same file
                return locked if self._candidate(origin).digest == locked.digest else None
            # Kept while the same ref is asked for: a branch moves on only with --update.
            return locked if locked.version == origin.version and bool(locked.commit) == (origin.kind == GIT) \
                else None
        if locked.version is None or not all(ask.digest or ask.constraint.allows(locked.version) for ask in asks):
            return None
        return locked

    def _locked_source(self, locked: LockedRole) -> str:
        if "://" in locked.source or locked.source.startswith(("git+", "git@")):
            return locked.source
        return str((self.lock_dir / locked.source).resolve())

    def _check(self, name: str, asks: list[Requirement], version: str) -> None:
        refused = [ask for ask in asks if not ask.digest and not ask.constraint.allows(version)]
        if refused:
            raise ResolutionError(f"'{name}' {version} does not satisfy every requirement:\n"
                                  f"{_asks(asks, lines=True)}")

    def _conflict(self, name: str, asks: list[Requirement], versions: list[str]) -> ResolutionError:
        available = ", ".join(versions) if versions else "none"
        return ResolutionError(f"no version of '{name}' satisfies every requirement:\n{_asks(asks, lines=True)}\n"
                               f"  versions in the registry: {available}")

    # --- asking the catalog once ------------------------------------------------------------------------------

    def _available(self, origin: RoleRef) -> list[str]:
        if origin.source not in self._versions:
            self._versions[origin.source] = self.catalog.versions(origin)
        return self._versions[origin.source]

    def _candidate(self, origin: Origin) -> Candidate:
        key = str(origin)
        if key not in self._candidates:
            self._candidates[key] = self.catalog.candidate(origin)
        return self._candidates[key]

    def _candidate_at(self, origin: Origin, locked: LockedRole) -> Candidate:
        if isinstance(origin, Path):
            return self._candidate(origin)
        if isinstance(origin, SourceRef):
            return self._candidate(origin.pinned(commit=locked.commit, digest=locked.digest))
        return self._candidate(origin.at(version=locked.version, digest=locked.digest))


def _asks(asks: list[Requirement], *, lines: bool = False) -> str:
    parts = [f"{ask.requested_by} asks for {ask.wants()}" for ask in asks]
    return "\n".join(f"  {part}" for part in parts) if lines else "; ".join(parts)


def _digests(roles: dict[str, ResolvedRole]) -> dict[str, str]:
    return {name: role.digest for name, role in roles.items()}


def _dependencies_first(roots: list[Requirement], roles: dict[str, ResolvedRole]) -> list[ResolvedRole]:
    ordered: dict[str, ResolvedRole] = {}

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in ordered or name in path or name not in roles:
            return  # a cycle is the compiler's to report; installing needs each role once
        for dependency in roles[name].dependencies:
            visit(dependency.name, (*path, name))
        ordered[name] = roles[name]

    for name in [*(root.name for root in roots), *roles]:
        visit(name, ())
    return list(ordered.values())
