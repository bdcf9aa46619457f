"""One resolution for the whole tree: highest allowed versions, transitive dependencies, the lock honoured,
and conflicts that name who asked for what. The catalog is an in-memory registry of role configs."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import SourcePosition
from runner.galaxy.artifact import Dependency
from runner.galaxy.errors import LockMismatchError, NotFoundError, ResolutionError
from runner.galaxy.lockfile import Lock, LockedRole
from runner.galaxy.reference import RoleRef, parse_reference
from runner.galaxy.requirements import Requirement
from runner.galaxy.resolver import Candidate, Resolver
from runner.util.versions import parse_constraint

REGISTRY = "reg.example.com"


class MemoryCatalog:
    """Roles by repository → version → dependencies; digests derived from name and version."""

    def __init__(self, roles: dict[str, dict[str, list[Dependency]]]):
        self.roles = roles
        self.asked: list[str] = []

    def versions(self, ref: RoleRef) -> list[str]:
        self.asked.append(f"versions {ref.repository}")
        if ref.repository not in self.roles:
            raise NotFoundError(f"there is no role {ref.repository} in {ref.registry}")
        return list(self.roles[ref.repository])

    def candidate(self, origin: RoleRef | Path) -> Candidate:
        assert isinstance(origin, RoleRef)
        self.asked.append(f"candidate {origin.repository}")
        versions = self.roles[origin.repository]
        version = origin.version or next(v for v in versions if digest(origin.repository, v) == origin.digest)
        return Candidate(digest(origin.repository, version), version, tuple(versions[version]))


def digest(repository: str, version: str) -> str:
    return "sha256:" + f"{abs(hash((repository, version))):064d}"[-64:]


def requirement(name: str, constraint: str = "*", *, pinned: str | None = None, line: int = 1) -> Requirement:
    return Requirement(name=name, origin=RoleRef(REGISTRY, f"team/{name}"), constraint=parse_constraint(constraint),
                       digest=pinned, requested_by=f"requirements.yml:{line}:5",
                       position=SourcePosition("requirements.yml", line, 5))


def reader(text: str, position: SourcePosition | None) -> RoleRef:
    return parse_reference(text, registry=REGISTRY, namespace="team")


CATALOG = {
    "team/app": {"1.0.0": [Dependency(name="db", version="^1.0"), Dependency(name="cache")],
                 "2.0.0": [Dependency(name="db", version=">=2")]},
    "team/db": {"1.0.0": [], "1.4.0": [Dependency(name="os", version="~1.2")], "2.0.0": []},
    "team/cache": {"0.1.0": [], "0.2.0": []},
    "team/os": {"1.2.0": [], "1.2.9": [], "1.3.0": []},
}


def resolve(*roots: Requirement, lock: Lock | None = None, frozen: bool = False,
            catalog: MemoryCatalog | None = None) -> dict[str, str | None]:
    resolver = Resolver(catalog or MemoryCatalog(CATALOG), reader, lock=lock, frozen=frozen)
    return {role.name: role.version for role in resolver.resolve(list(roots))}


def test_highest_allowed_versions_with_transitive_dependencies_first() -> None:
    assert resolve(requirement("app", "^1.0")) == {"os": "1.2.9", "db": "1.4.0", "cache": "0.2.0", "app": "1.0.0"}


def test_a_dependency_is_chosen_once_for_everyone_who_needs_it() -> None:
    # db ^1.0 from app, db <1.2 from the requirements: 1.0.0 satisfies both (and needs no os).
    assert resolve(requirement("app", "1.0.0"), requirement("db", "<1.2", line=2)) == {
        "db": "1.0.0", "cache": "0.2.0", "app": "1.0.0"}


def test_conflicting_constraints_name_who_asked_for_what() -> None:
    with pytest.raises(ResolutionError) as raised:
        resolve(requirement("app", "2.0.0"), requirement("db", "^1.0", line=7))
    message = str(raised.value)
    assert "no version of 'db' satisfies every requirement" in message
    assert "app 2.0.0 asks for >=2" in message and "requirements.yml:7:5 asks for ^1.0" in message
    assert "versions in the registry: 1.0.0, 1.4.0, 2.0.0" in message


def test_a_digest_pin_is_kept_and_its_version_checked() -> None:
    pin = digest("team/db", "1.0.0")
    assert resolve(requirement("db", pinned=pin)) == {"db": "1.0.0"}
    with pytest.raises(ResolutionError, match=r"'db' 1\.0\.0 does not satisfy every requirement"):
        resolve(requirement("db", pinned=pin), requirement("app", "2.0.0", line=2))


def test_the_lock_is_honoured_without_asking_the_registry_for_versions() -> None:
    lock = Lock("sha256:x", [LockedRole("db", f"oci://{REGISTRY}/team/db", "1.0.0", digest("team/db", "1.0.0"))])
    catalog = MemoryCatalog(CATALOG)
    assert resolve(requirement("db", "^1.0"), lock=lock, catalog=catalog) == {"db": "1.0.0"}
    assert "versions team/db" not in catalog.asked
    # A lock entry the requirements no longer accept is resolved again, or refused under --frozen.
    assert resolve(requirement("db", "^2.0"), lock=lock) == {"db": "2.0.0"}
    with pytest.raises(LockMismatchError, match=r"the lock file does not satisfy 'db' \(requirements.yml:1:5 asks"):
        resolve(requirement("db", "^2.0"), lock=lock, frozen=True)


def test_two_sources_for_one_name_are_an_error() -> None:
    other = Requirement(name="db", origin=RoleRef("other.example.com", "x/db"), requested_by="requirements.yml:3:5")
    with pytest.raises(ResolutionError, match="'db' is asked for from different places"):
        resolve(requirement("db"), other)


def test_a_requirement_entry_decides_the_source_of_a_dependency() -> None:
    mirror = dict(CATALOG, **{"mirror/db": {"1.0.0": []}})
    root = Requirement(name="db", origin=RoleRef(REGISTRY, "mirror/db"), requested_by="requirements.yml:2:5")
    resolver = Resolver(MemoryCatalog(mirror), reader)
    roles = {role.name: role for role in resolver.resolve([requirement("app", "1.0.0"), root])}
    assert roles["db"].source == f"oci://{REGISTRY}/mirror/db"
    assert roles["db"].requested_by == ("requirements.yml:2:5", "app 1.0.0")


def test_a_missing_role_is_reported_with_who_asked_for_it() -> None:
    catalog = dict(CATALOG, **{"team/db": {"1.0.0": [Dependency(name="ghost", version="^1")]}})
    with pytest.raises(NotFoundError) as raised:
        resolve(requirement("db"), catalog=MemoryCatalog(catalog))
    assert str(raised.value) == "ERROR: there is no role team/ghost in reg.example.com\n  db 1.0.0 asks for ^1"
