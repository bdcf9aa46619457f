"""A collection's metadata: ``galaxy.yml`` of a source directory, or ``MANIFEST.json`` of a built collection.

``galaxy.yml`` is Ansible's: ``namespace``, ``name``, ``version``, ``readme`` and ``authors`` are required;
``dependencies`` maps ``NAMESPACE.NAME`` to a version constraint (``">=1.0.0"``, ``"*"``); ``build_ignore`` adds
glob patterns to what a build leaves out. Problems are reported at their file:line:col.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field, field_validator

from runner.errors import SourcePosition
from runner.galaxy.artifact import Dependency, plain
from runner.galaxy.errors import GalaxyError, RequirementsError
from runner.loader.yaml import load_yaml_file
from runner.models.base import Model
from runner.models.types import Text
from runner.models.validation import validate
from runner.util.versions import is_version

GALAXY_YML = ("galaxy.yml", "galaxy.yaml")
MANIFEST_JSON = "MANIFEST.json"
FILES_JSON = "FILES.json"
NAME_PART = re.compile(r"^[a-z_][a-z0-9_]*$")  # Ansible's: a Python identifier, lowercase
STRING_KEYS = ("description", "license_file", "repository", "documentation", "homepage", "issues")


class GalaxyYml(Model):
    """``galaxy.yml`` as ``ansible-galaxy collection build`` reads it."""

    KIND = "galaxy.yml"

    namespace: Text
    name: Text
    version: Text
    readme: Text
    authors: list[Text]
    description: Text | None = None
    license: list[Text] = Field(default_factory=list)
    license_file: Text | None = None
    tags: list[Text] = Field(default_factory=list)
    dependencies: dict[str, Text] = Field(default_factory=dict)
    repository: Text | None = None
    documentation: Text | None = None
    homepage: Text | None = None
    issues: Text | None = None
    build_ignore: list[Text] = Field(default_factory=list)
    manifest: dict[str, Any] | None = None

    @field_validator("license", "authors", "tags", mode="before")
    @classmethod
    def _one_is_a_list(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    @field_validator("namespace", "name")
    @classmethod
    def _identifier(cls, value: str) -> str:
        if not NAME_PART.match(value):
            raise ValueError(f"'{value}' is not a collection name part (lowercase letters, digits and _, "
                             "not starting with a digit)")
        return value

    @field_validator("version")
    @classmethod
    def _semver(cls, value: str) -> str:
        if not is_version(value):
            raise ValueError(f"'{value}' is not a semver version (expected MAJOR.MINOR.PATCH)")
        return value


@dataclass(frozen=True)
class CollectionInfo:
    """What resolving and installing need: the full name, version and dependencies, and MANIFEST.json's
    ``collection_info`` as written."""

    namespace: str
    name: str
    version: str
    dependencies: dict[str, str] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def fqcn(self) -> str:
        return f"{self.namespace}.{self.name}"

    def as_dependencies(self) -> list[Dependency]:
        return [Dependency(name=name, version=str(version)) for name, version in self.dependencies.items()]


def galaxy_yml_path(directory: Path) -> Path | None:
    return next((directory / name for name in GALAXY_YML if (directory / name).is_file()), None)


def is_collection_dir(directory: Path) -> bool:
    return galaxy_yml_path(directory) is not None or (directory / MANIFEST_JSON).is_file()


def read_galaxy_yml(directory: Path) -> GalaxyYml:
    path = galaxy_yml_path(directory)
    if path is None:
        raise GalaxyError(f"{directory} is not a collection (it has no galaxy.yml)")
    data = load_yaml_file(path)
    if not isinstance(data, dict):
        raise RequirementsError(f"{path}: expected a mapping of namespace, name, version...",
                                SourcePosition(str(path)))
    return validate(GalaxyYml, data, where=SourcePosition(str(path)))


def collection_info(meta: GalaxyYml) -> dict[str, Any]:
    """MANIFEST.json's ``collection_info``, key for key as ``ansible-galaxy collection build`` writes it."""
    return {
        "namespace": meta.namespace, "name": meta.name, "version": meta.version, "authors": list(meta.authors),
        "readme": meta.readme, "tags": list(meta.tags), "description": meta.description,
        "license": list(meta.license), "license_file": meta.license_file or None,
        "dependencies": plain(meta.dependencies), "repository": meta.repository,
        "documentation": meta.documentation, "homepage": meta.homepage, "issues": meta.issues,
    }


def read_collection(directory: Path) -> CollectionInfo:
    """The collection in ``directory``: a built one (MANIFEST.json) or a source tree (galaxy.yml)."""
    manifest = directory / MANIFEST_JSON
    if galaxy_yml_path(directory) is None and manifest.is_file():
        return _from_manifest(manifest)
    meta = read_galaxy_yml(directory)
    return CollectionInfo(meta.namespace, meta.name, meta.version, dict(meta.dependencies), collection_info(meta))


def _from_manifest(path: Path) -> CollectionInfo:
    try:
        info = json.loads(path.read_text(encoding="utf-8"))["collection_info"]
        found = CollectionInfo(str(info["namespace"]), str(info["name"]), str(info["version"]),
                               {str(key): str(value) for key, value in (info.get("dependencies") or {}).items()},
                               info)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise GalaxyError(f"{path} is not a collection's MANIFEST.json ({exc})") from None
    if not NAME_PART.match(found.namespace) or not NAME_PART.match(found.name):
        raise GalaxyError(f"{path} names the collection '{found.fqcn}', which is no valid collection name")
    return found
