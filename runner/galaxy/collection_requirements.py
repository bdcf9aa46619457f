"""The ``collections:`` section of ``requirements.yml``, as ``ansible-galaxy collection install -r`` reads it.

An entry is a string (its ``name``) or a mapping of ``name``, ``version``, ``type`` and ``source``:

- ``NAMESPACE.NAME`` (``type: galaxy`` or none): the collection in the configured registry and namespace, as
  ``oci://REGISTRY/NAMESPACE/NAMESPACE.NAME``; ``oci://HOST/TEAM/NS.NAME`` names another; ``version`` is a
  constraint (``>=1.0.0``, ``^1.2``, ``*``);
- a git repository (``type: git``, ``git+URL``, ``git@host:repo``), ``version`` a branch, tag or commit;
- a tarball (``type: url`` or an ``http(s)://``/``file://`` URL; ``type: file`` or a ``.tar.gz`` path: the
  output of ``ansible-galaxy collection build``), or a directory holding galaxy.yml (``type: dir`` or a path).

The name of a git, tarball or directory collection is the one its galaxy.yml or MANIFEST.json gives; it is read
when the source is fetched. ``source`` (a Galaxy server) is Ansible's and refused: collections come from
registries or the sources above.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from runner.errors import SourcePosition
from runner.galaxy.errors import RequirementsError
from runner.galaxy.requirements import ReferenceReader, Requirement, constraint_of, is_path_text
from runner.galaxy.sources import GIT, SourceRef, is_source, parse_source
from runner.loader.yaml import load_yaml_file
from runner.models.base import Model
from runner.models.types import Text, describe
from runner.models.validation import validate
from runner.positions import position_of

TYPES = ("galaxy", "git", "url", "file", "dir")


class CollectionEntry(Model):
    """One entry of ``collections:``."""

    KIND = "collection requirement"

    name: Text = Field(description="NAMESPACE.NAME, oci:// reference, git or tarball URL, tarball or directory")
    version: Text | None = Field(default=None, description="Version constraint; of a git source: a ref")
    type: Text | None = Field(default=None, description="galaxy, git, url, file or dir (default: from name)")
    source: Text | None = Field(default=None, description="Ansible's Galaxy server: not supported")
    signatures: list[Text] = Field(default_factory=list, description="Ansible's: not supported")


def load_collection_requirements(path: Path, reference: ReferenceReader) -> list[Requirement]:
    """The collections ``path`` asks for (none when it is a plain list of roles); problems at file:line:col."""
    data = load_yaml_file(path)
    if not isinstance(data, dict):
        return []
    where = SourcePosition(str(path))
    data = data.get("collections")
    if data is None:
        return []
    if not isinstance(data, list):
        raise RequirementsError(f"expected a list of collections, got {describe(data)}", position_of(data) or where)
    found = []
    for index, item in enumerate(data):
        position = position_of(data, index) or where
        entry = validate(CollectionEntry, {"name": item} if isinstance(item, str) else item, where=position)
        found.append(_requirement(entry, path.parent, reference, position))
    return found


def check_unique_collections(requirements: list[Requirement]) -> None:
    """Once names are known (git, tarball and directory collections name themselves): each collection once."""
    seen: dict[str, Requirement] = {}
    for requirement in requirements:
        earlier = seen.setdefault(requirement.name, requirement)
        if earlier is not requirement:
            raise RequirementsError(f"the collection '{requirement.name}' is required twice (also at "
                                    f"{earlier.position}): keep one entry", requirement.position)


def _requirement(entry: CollectionEntry, base_dir: Path, reference: ReferenceReader,
                 position: SourcePosition) -> Requirement:
    if entry.type is not None and entry.type not in TYPES:
        raise RequirementsError(f"type: {entry.type} is not supported (expected {', '.join(TYPES)})", position)
    if entry.source:
        raise RequirementsError("source: names a Galaxy server; collections come from OCI registries (give "
                                "oci://HOST/NAMESPACE/NS.NAME as name), git, tarballs or directories", position)
    if entry.signatures:
        raise RequirementsError("signatures: are not supported: a collection is checked by its digest", position)
    text, asked = entry.name.strip(), str(position)
    kind = entry.type
    if kind == "dir" or (kind is None and is_path_text(text) and not text.endswith((".tar.gz", ".tgz"))):
        directory = (base_dir / Path(text).expanduser()).resolve()
        if not directory.is_dir():
            raise RequirementsError(f"{directory} is not a directory", position)
        return Requirement(name=text, origin=directory, requested_by=asked, position=position)
    if kind in ("git", "url", "file") or (kind is None and is_source(text)):
        try:
            origin = parse_source(text, GIT if kind == "git" else None, entry.version, base_dir)
        except ValueError as exc:
            raise RequirementsError(str(exc), position) from None
        if origin.is_local and not Path(origin.location).is_file():
            raise RequirementsError(f"{origin.location} does not exist (a collection tarball was expected)",
                                    position)
        return Requirement(name=text, origin=origin, requested_by=asked, position=position, version=origin.version)
    return _registry_requirement(entry, text, reference, position, asked)


def _registry_requirement(entry: CollectionEntry, text: str, reference: ReferenceReader, position: SourcePosition,
                          asked: str) -> Requirement:
    ref = reference(text, position)
    if ref.name.count(".") != 1:
        raise RequirementsError(f"'{text}' names no collection: the last part is NAMESPACE.NAME (demo.tools)",
                                position)
    constraint, digest = constraint_of(ref, text, entry.version, position)
    return Requirement(name=ref.name, origin=ref.at(), constraint=constraint, digest=digest, requested_by=asked,
                       position=position)


def is_named_by_content(requirement: Requirement) -> bool:
    """A git, tarball or directory collection: its real name is in its galaxy.yml or MANIFEST.json."""
    return isinstance(requirement.origin, Path | SourceRef)
