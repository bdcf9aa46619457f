"""Roles in registries, read through the content cache: versions, metadata and archives.

Anything named by digest is looked up in the cache first and fetched (then cached) only when missing, so an
install from a lock file works with the registry down once its content has been fetched once. A tag is a
question only the registry can answer, so reading by tag always asks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from runner.galaxy.artifact import ROLE, ArtifactKind, Descriptor, Manifest, RoleConfig
from runner.galaxy.context import GalaxyContext
from runner.galaxy.errors import GalaxyError
from runner.galaxy.extract import check_archive, oversized
from runner.galaxy.reference import RoleRef
from runner.util.versions import sort_versions


@dataclass(frozen=True)
class RoleArtifact:
    """A role version in a registry: its reference (with version and digest), manifest and metadata."""

    ref: RoleRef
    digest: str
    manifest: Manifest
    config: RoleConfig

    @property
    def version(self) -> str:
        return self.config.version


class RoleStore:
    def __init__(self, context: GalaxyContext, kind: ArtifactKind = ROLE):
        self.context = context
        self.cache = context.cache
        self.kind = kind

    def versions(self, ref: RoleRef) -> list[str]:
        """The role's versions in the registry (semver tags), lowest first."""
        return sort_versions(self.context.client(ref.registry).tags(ref.repository))

    def tags(self, ref: RoleRef) -> list[str]:
        return sorted(self.context.client(ref.registry).tags(ref.repository))

    def artifact(self, ref: RoleRef) -> RoleArtifact:
        """The role ``ref`` names by digest (cache first) or by version/tag (the registry)."""
        data, digest = self._manifest(ref)
        manifest = Manifest.from_bytes(data, str(ref), self.kind)
        config_data = self._blob_bytes(ref, manifest.config)
        config = RoleConfig.from_bytes(config_data, str(ref))
        if ref.version and ref.version != config.version and not ref.digest and ref.version != "latest":
            raise GalaxyError(f"{ref} holds version {config.version} of the {self.kind.label}, not {ref.version}")
        return RoleArtifact(ref.at(version=config.version, digest=digest), digest, manifest, config)

    def archive(self, artifact: RoleArtifact) -> Path:
        """The role's archive in the cache, checked against its digest and the archive rules."""
        layer = artifact.manifest.layer
        if layer.size > self.context.max_archive_size:
            raise oversized(self.context.max_archive_size, f"{layer.size} bytes packed", str(artifact.ref))
        path = self._blob_file(artifact.ref, layer)
        check_archive(path, self.context.max_archive_size, str(artifact.ref))
        return path

    def _manifest(self, ref: RoleRef) -> tuple[bytes, str]:
        if ref.digest:
            cached = self.cache.read(ref.digest)
            if cached is not None:
                return cached, ref.digest
        data, digest = self.context.client(ref.registry).manifest(ref.repository, ref.digest or ref.version or
                                                                  "latest")
        self.cache.store(digest, data)
        return data, digest

    def _blob_file(self, ref: RoleRef, descriptor: Descriptor) -> Path:
        found = self.cache.find(descriptor.digest)
        if found is not None:
            return found
        target = self.cache.download_target(descriptor.digest)
        self.context.client(ref.registry).download_verified(ref.repository, descriptor, target)
        return target

    def _blob_bytes(self, ref: RoleRef, descriptor: Descriptor) -> bytes:
        return self._blob_file(ref, descriptor).read_bytes()
