"""``requirements.yml``: the roles a project needs, as Ansible writes the file, with OCI sources added.

The file is a list of entries, or a mapping whose ``roles:`` holds that list (``collections:`` is read by
``runner.galaxy.collection_requirements``). An entry is a string (its ``src``) or a mapping of ``src``,
``name``, ``version`` and ``scm``. ``src`` is one of:

- ``oci://HOST[:PORT]/NAMESPACE/NAME`` with an optional ``:CONSTRAINT`` (``^1.2``, ``>=1.0,<2``, ``1.4.0``) or
  ``@sha256:...`` pin; ``version:`` may give the constraint instead;
- a local directory, written as a path (``./roles-dev/os``, ``../os``, ``/srv/roles/os``; relative to the
  requirements file), installed as it is;
- a git repository (``git+https://...``, ``git+file:///...``, ``git@host:repo``, or a URL with ``scm: git``;
  ``version`` a branch, tag or commit) or a tarball (an ``http(s)://`` or ``file://`` URL, or a local
  ``.tar.gz`` path), as ``ansible-galaxy`` takes them (``runner.galaxy.sources``);
- a role name in the configured registry: ``redis`` (in the configured namespace), ``team/redis``, or an
  Ansible Galaxy name ``team.redis`` (namespace ``team``, installed as ``team.redis`` as Ansible names it).

``name`` is the directory the role is installed as (default: the source's last part).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field

from runner.errors import SourcePosition
from runner.galaxy.errors import RequirementsError
from runner.galaxy.reference import DIGEST, SCHEME, RoleRef, looks_like_host
from runner.galaxy.sources import GIT, SourceRef, is_source, parse_source
from runner.loader.yaml import load_yaml_file
from runner.models.base import Model
from runner.models.types import Text, describe
from runner.models.validation import validate
from runner.positions import position_of
from runner.util.versions import ANY, Constraint, ConstraintError, parse_constraint

ReferenceReader = Callable[[str, SourcePosition | None], RoleRef]


class RequirementEntry(Model):
    """One entry of ``requirements.yml``."""

    KIND = "requirement"

    src: Text | None = Field(default=None, description="oci:// reference, git or tarball URL, local directory "
                             "or tarball, or role name")
    name: Text | None = Field(default=None, description="Name to install the role as")
    version: Text | None = Field(default=None, description="Version constraint, exact version or @sha256 "
                                 "digest; of a git source: a branch, tag or commit")
    scm: Text | None = Field(default=None, description="git for a git repository; oci (or none) otherwise")


@dataclass(frozen=True)
class Requirement:
    """A role someone asked for: under which name, from where, which versions, and who asked."""

    name: str
    origin: RoleRef | Path | SourceRef
    constraint: Constraint = ANY
    digest: str | None = None
    requested_by: str = ""
    position: SourcePosition | None = None
    version: str | None = None  # of a local directory, when the entry says; of a git source, the ref asked for

    @property
    def is_local(self) -> bool:
        return isinstance(self.origin, Path)

    @property
    def source(self) -> str:
        return str(self.origin) if isinstance(self.origin, Path) else self.origin.source

    def wants(self) -> str:
        """What this requirement accepts, as people write it."""
        return f"@{self.digest}" if self.digest else str(self.constraint)


def load_requirements(path: Path, reference: ReferenceReader) -> tuple[list[Requirement], list[str]]:
    """The requirements in ``path`` and warnings; every problem is raised at its file:line:col."""
    if not path.is_file():
        raise RequirementsError(f"the requirements file {path} does not exist")
    data = load_yaml_file(path)
    warnings: list[str] = []
    where = SourcePosition(str(path))
    if isinstance(data, dict):
        unknown = [key for key in data if key not in ("roles", "collections")]
        if unknown:
            raise RequirementsError(f"'{unknown[0]}' is not a requirements key (expected roles: or collections:)",
                                    position_of(data, unknown[0]) or where)
        data = data.get("roles") or []
    if data is None:
        data = []
    if not isinstance(data, list):
        raise RequirementsError(f"expected a list of roles, got {describe(data)}", position_of(data) or where)
    requirements: list[Requirement] = []
    for index, item in enumerate(data):
        position = position_of(data, index) or where
        mapping = _from_string(item) if isinstance(item, str) else item
        entry = validate(RequirementEntry, mapping, where=position)
        requirements.append(to_requirement(entry, path.parent, reference, position))
    _check_unique(requirements)
    return requirements, warnings


def _from_string(text: str) -> dict[str, str]:
    """A string entry: its src, or Ansible's ``SRC,VERSION[,NAME]`` (``git+https://host/web.git,v1.2,web``) for a
    git or tarball source (a registry reference's constraint may hold commas: ``redis:>=1.0,<2``)."""
    if "," not in text or not is_source(text.split(",", 1)[0].strip()):
        return {"src": text}
    parts = [part.strip() for part in text.split(",", 2)]
    return {key: value for key, value in zip(("src", "version", "name"), parts, strict=False) if value}


def to_requirement(entry: RequirementEntry, base_dir: Path, reference: ReferenceReader,
                   position: SourcePosition | None, requested_by: str | None = None) -> Requirement:
    """One entry read into a requirement; ``base_dir`` anchors relative directories."""
    asked = requested_by or str(position or base_dir)
    text = (entry.src or entry.name or "").strip()
    if not text:
        raise RequirementsError("a requirement needs src (or name)", position)
    if entry.scm not in (None, "", "oci", GIT):
        raise RequirementsError(f"scm: {entry.scm} is not supported (expected git, or none)", position)
    if entry.src and is_source(text, entry.scm):
        return _source_requirement(entry, text, base_dir, position, asked)
    if text.startswith(SCHEME) or not entry.src or not is_path_text(text):
        return _registry_requirement(entry, text, reference, position, asked)
    directory = (base_dir / Path(text).expanduser()).resolve()
    if not (directory / "tasks").is_dir() and not (directory / "meta").is_dir():
        raise RequirementsError(f"{directory} is not a role directory (it has neither tasks/ nor meta/)", position)
    return Requirement(name=entry.name if entry.src and entry.name else directory.name, origin=directory,
                       requested_by=asked, position=position, version=entry.version)


def _source_requirement(entry: RequirementEntry, text: str, base_dir: Path, position: SourcePosition | None,
                        asked: str) -> Requirement:
    try:
        origin = parse_source(text, entry.scm, entry.version, base_dir)
    except ValueError as exc:
        raise RequirementsError(str(exc), position) from None
    if origin.is_local and not Path(origin.location).is_file():
        raise RequirementsError(f"{origin.location} does not exist (a tarball was expected)", position)
    return Requirement(name=entry.name or origin.name, origin=origin, requested_by=asked, position=position,
                       version=origin.version)


def is_path_text(text: str) -> bool:
    # Only a path written as one: "redis" is a role name even where a directory of that name exists.
    return text.startswith(("./", "../", "/", "~")) or text in (".", "..")


def _registry_requirement(entry: RequirementEntry, text: str, reference: ReferenceReader,
                          position: SourcePosition | None, asked: str) -> Requirement:
    galaxy_name = None
    if not text.startswith(SCHEME) and "/" not in text and "." in text.split(":")[0].split("@")[0]:
        galaxy_name = text.split(":")[0].split("@")[0]  # team.redis: Ansible Galaxy's namespace.role
        text = text.replace(".", "/", 1)
    elif not text.startswith(SCHEME) and looks_like_host(text.split("/")[0]) and "/" in text:
        text = SCHEME + text
    ref = reference(text, position)
    constraint, digest = constraint_of(ref, text, entry.version, position)
    name = entry.name if entry.src and entry.name else (galaxy_name or ref.name)
    return Requirement(name=name, origin=ref.at(), constraint=constraint, digest=digest, requested_by=asked,
                       position=position)


def constraint_of(ref: RoleRef, text: str, written: str | None,
                  position: SourcePosition | None) -> tuple[Constraint, str | None]:
    """The constraint and digest pin of a registry requirement: from the reference (``redis:^1.2``,
    ``@sha256:...``) or the entry's ``version`` (a constraint or ``@sha256:...``), not both."""
    version, digest = ref.version, ref.digest
    if written:
        pinned = written.strip().lstrip("@")
        if DIGEST.match(pinned):
            digest = digest or pinned
        elif version and version != written:
            raise RequirementsError(f"'{text}' gives the version {version} and version: {written}: give one",
                                    position)
        else:
            version = written
    try:
        return parse_constraint(None if digest else version), digest
    except ConstraintError as exc:
        raise RequirementsError(str(exc), position) from None


def _check_unique(requirements: list[Requirement]) -> None:
    seen: dict[str, Requirement] = {}
    for requirement in requirements:
        earlier = seen.setdefault(requirement.name, requirement)
        if earlier is not requirement:
            raise RequirementsError(f"the role '{requirement.name}' is required twice (also at "
                                    f"{earlier.position}): keep one entry, or install the other under another name",
                                    requirement.position)


def fingerprint(requirements: list[Requirement], relative_to: Path, collections: list[Requirement] | None = None
                ) -> str:
    """A digest of what was asked for: the lock file records it, to tell when the requirements changed."""
    rows: list[Any] = [[r.name, portable_source(r, relative_to), r.wants(), r.version] for r in requirements]
    if collections:  # only then, so a lock of roles alone keeps the fingerprint it was written with
        rows.append(["collections", *([r.name, portable_source(r, relative_to), r.wants(), r.version]
                                      for r in collections)])
    return "sha256:" + hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


def portable_source(requirement: Requirement, relative_to: Path) -> str:
    """Where ``requirement`` comes from as the lock file records it."""
    origin = requirement.origin
    if isinstance(origin, SourceRef) and origin.is_local:
        return portable_path(Path(origin.location), relative_to)
    if isinstance(origin, Path):
        return portable_path(origin, relative_to)
    return requirement.source


def portable_path(path: Path, relative_to: Path) -> str:
    """``path`` relative to ``relative_to`` when under it, so a lock file reads the same in every checkout."""
    try:
        return path.relative_to(relative_to.resolve()).as_posix()
    except ValueError:
        return str(path)
