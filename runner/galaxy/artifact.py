"""A role as an OCI artifact: its media types, its config blob (the role's metadata) and its manifest.

The manifest is an OCI image manifest with its own ``artifactType``, a JSON config blob holding what resolving
dependencies needs without downloading the role (name, version, dependencies, taskserv section), one tar+gzip
layer with the role's files, and the standard ``org.opencontainers.image.*`` annotations. Manifests and configs
are written as canonical JSON (sorted keys, no spaces), so their digests depend on their content alone.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from runner.errors import UserError
from runner.galaxy.archive import RoleArchive, sha256_digest
from runner.galaxy.errors import GalaxyError, VerificationError
from runner.loader.role import role_files
from runner.loader.yaml import load_yaml_file
from runner.models.role import RoleMeta
from runner.models.validation import raise_collected, validate

ARTIFACT_TYPE = "application/vnd.provisioning.role.v1"
CONFIG_MEDIA_TYPE = "application/vnd.provisioning.role.config.v1+json"
LAYER_MEDIA_TYPE = "application/vnd.provisioning.role.content.v1.tar+gzip"
MANIFEST_MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json"


@dataclass(frozen=True)
class ArtifactKind:
    """What an artifact holds (a role or a collection): its media types, and the word messages use."""

    label: str
    artifact_type: str
    config_media_type: str
    layer_media_type: str


ROLE = ArtifactKind("role", ARTIFACT_TYPE, CONFIG_MEDIA_TYPE, LAYER_MEDIA_TYPE)
# A collection's layer is the tarball `ansible-galaxy collection build` makes (MANIFEST.json, FILES.json, files):
# `oras pull` gives a file `ansible-galaxy collection install` takes as it is.
COLLECTION = ArtifactKind("collection", "application/vnd.provisioning.collection.v1",
                          "application/vnd.provisioning.collection.config.v1+json",
                          "application/vnd.provisioning.collection.content.v1.tar+gzip")

ANNOTATION = "org.opencontainers.image."
TITLE, VERSION, CREATED = ANNOTATION + "title", ANNOTATION + "version", ANNOTATION + "created"
SOURCE, DESCRIPTION = ANNOTATION + "source", ANNOTATION + "description"
LICENSES, AUTHORS = ANNOTATION + "licenses", ANNOTATION + "authors"


def canonical_json(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class Dependency(BaseModel):
    """A role this role needs: by name, optionally where from (``source``) and which versions (``version``)."""

    model_config = ConfigDict(extra="ignore")

    name: str
    source: str | None = None
    version: str | None = None


class RoleConfig(BaseModel):
    """The config blob: what the registry tells about a role without its files."""

    model_config = ConfigDict(extra="ignore")  # a newer writer may add keys; an older reader skips them

    name: str
    version: str
    description: str = ""
    dependencies: list[Dependency] = Field(default_factory=list)
    taskserv: dict[str, Any] | None = None
    galaxy_info: dict[str, Any] = Field(default_factory=dict)

    def to_bytes(self) -> bytes:
        return canonical_json(self.model_dump(mode="json"))

    @classmethod
    def from_bytes(cls, data: bytes, where: str) -> RoleConfig:
        try:
            return cls.model_validate_json(data)
        except ValidationError as exc:
            raise GalaxyError(f"{where}: the role's config blob is not valid ({exc.errors()[0]['msg']})") from None


class Descriptor(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    media_type: str = Field(alias="mediaType")
    digest: str
    size: int
    annotations: dict[str, str] = Field(default_factory=dict)


class Manifest(BaseModel):
    """The parts of an OCI image manifest a role artifact uses."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    schema_version: int = Field(alias="schemaVersion")
    media_type: str | None = Field(default=None, alias="mediaType")
    artifact_type: str | None = Field(default=None, alias="artifactType")
    config: Descriptor
    layers: list[Descriptor]
    annotations: dict[str, str] = Field(default_factory=dict)

    @property
    def layer(self) -> Descriptor:
        return self.layers[0]

    @classmethod
    def from_bytes(cls, data: bytes, where: str, kind: ArtifactKind = ROLE) -> Manifest:
        try:
            manifest = cls.model_validate_json(data)
        except ValidationError as exc:
            raise GalaxyError(f"{where}: not an OCI image manifest ({exc.errors()[0]['msg']})") from None
        found = manifest.artifact_type or manifest.config.media_type
        if found not in (kind.artifact_type, kind.config_media_type):
            raise GalaxyError(f"{where} is not a {kind.label} artifact (its type is {found}, expected "
                              f"{kind.artifact_type})")
        if len(manifest.layers) != 1 or manifest.layer.media_type != kind.layer_media_type:
            raise GalaxyError(f"{where}: a {kind.label} artifact has one layer of type {kind.layer_media_type}")
        return manifest


def read_role_meta(role_dir: Path) -> RoleMeta:
    """``meta/main.yml`` of a role directory (an empty one when the role has none); errors at file:line:col."""
    errors: list[UserError] = []
    found = role_files(role_dir, "meta", None, errors=errors)
    raise_collected(errors)
    if not found:
        return RoleMeta()
    data = load_yaml_file(found[0])
    return validate(RoleMeta, {} if data is None else data)


def plain(data: Any) -> Any:
    """YAML data (which remembers positions) as plain JSON-able values."""
    if isinstance(data, Mapping):
        return {str(key): plain(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [plain(item) for item in data]
    return data


def dependencies_of(meta: RoleMeta) -> list[Dependency]:
    """What a role needs: its ``dependencies`` (Ansible's ``src``/``version`` keys honoured) and its taskserv's
    ``requires`` (``containerd>=1.6``); one entry per name, in the order first written."""
    found: dict[str, Dependency] = {}
    for reference in meta.dependencies:
        source = reference.params.get("src")
        name = reference.role
        if name.startswith("oci://"):
            source, name = name, name.rstrip("/").rsplit("/", 1)[-1].split(":")[0].split("@")[0]
        version = reference.params.get("version")
        found.setdefault(name, Dependency(name=name, source=source, version=None if version is None
                                          else str(version)))
    for requirement in meta.taskserv.requires if meta.taskserv is not None else []:
        found.setdefault(requirement.name, Dependency(name=requirement.name, version=requirement.version))
    return list(found.values())


def role_config(name: str, version: str, meta: RoleMeta) -> RoleConfig:
    info = plain(meta.galaxy_info)
    return RoleConfig(name=name, version=version, description=str(info.get("description") or ""),
                      dependencies=dependencies_of(meta),
                      taskserv=meta.taskserv.model_dump(mode="json", exclude_unset=True)
                      if meta.taskserv is not None else None, galaxy_info=info)


def created_now() -> str:
    """RFC 3339 time of the push; ``SOURCE_DATE_EPOCH`` pins it for reproducible pushes."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = datetime.fromtimestamp(int(epoch), UTC) if epoch and epoch.isdigit() else datetime.now(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def annotations_for(config: RoleConfig, *, source: str | None, created: str) -> dict[str, str]:
    info = config.galaxy_info
    values = {
        TITLE: config.name, VERSION: config.version, CREATED: created, SOURCE: source,
        DESCRIPTION: config.description or None, LICENSES: _text(info.get("license")),
        AUTHORS: _text(info.get("author")),
    }
    return {key: value for key, value in values.items() if value}


def _text(value: Any) -> str | None:
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) or None
    return None if value is None else str(value)


def build_manifest(config: bytes, layer: RoleArchive, annotations: dict[str, str], file_name: str,
                   kind: ArtifactKind = ROLE) -> bytes:
    """The manifest; ``file_name`` is the layer's title, the name ``oras pull`` saves it under."""
    manifest = {
        "schemaVersion": 2,
        "mediaType": MANIFEST_MEDIA_TYPE,
        "artifactType": kind.artifact_type,
        "config": {"mediaType": kind.config_media_type, "digest": sha256_digest(config), "size": len(config)},
        "layers": [{"mediaType": kind.layer_media_type, "digest": layer.digest, "size": layer.size,
                    "annotations": {TITLE: file_name}}],
        "annotations": annotations,
    }
    return canonical_json(manifest)


def verify_digest(data: bytes, digest: str, what: str) -> None:
    actual = sha256_digest(data)
    if actual != digest:
        raise VerificationError(f"{what} does not match its digest {digest} (its content is {actual}); "
                                "nothing was installed")
