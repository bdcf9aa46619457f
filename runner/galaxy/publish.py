"""Publishing a role: pack it, describe it, and push it to a registry as a role artifact.

The version is the reference's tag and must be semver. A version already in the registry is refused unless
``force`` (tags are immutable by default, as the seed schema's push policy has it); ``latest`` also points the
``latest`` tag at the new version. The pushed content goes into the local content cache as well, so installing
what one just pushed needs no download.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from runner.galaxy.archive import RoleArchive, build_archive, sha256_digest
from runner.galaxy.artifact import (
    ROLE,
    ArtifactKind,
    RoleConfig,
    annotations_for,
    build_manifest,
    created_now,
    read_role_meta,
    role_config,
)
from runner.galaxy.context import GalaxyContext
from runner.galaxy.errors import GalaxyError
from runner.galaxy.reference import RoleRef
from runner.util.versions import is_version


@dataclass(frozen=True)
class PushResult:
    ref: RoleRef
    digest: str
    archive: RoleArchive
    tags: tuple[str, ...]


def build_role(role_dir: Path) -> RoleArchive:
    """The role's reproducible archive, after checking that its metadata reads."""
    read_role_meta(role_dir)
    return build_archive(role_dir)


def push_role(context: GalaxyContext, role_dir: Path, ref: RoleRef, *, force: bool = False, latest: bool = False,
              source: str | None = None) -> PushResult:
    version = _push_version(ref)
    meta = read_role_meta(role_dir)
    archive = build_archive(role_dir)
    config = role_config(ref.name, version, meta)
    return push_artifact(context, ref, archive, config, ROLE, f"{ref.name}.tar.gz", force=force, latest=latest,
                         source=source or _source_of(role_dir, meta.galaxy_info))


def push_artifact(context: GalaxyContext, ref: RoleRef, archive: RoleArchive, config_model: RoleConfig,
                  kind: ArtifactKind, file_name: str, *, force: bool, latest: bool, source: str | None) -> PushResult:
    """Push ``archive`` described by ``config_model`` as ``ref``'s version; the content goes to the cache too."""
    version = _push_version(ref)
    config = config_model.to_bytes()
    client = context.client(ref.registry)
    if not force and client.has_manifest(ref.repository, version):
        raise GalaxyError(f"{ref} is already in the registry: versions are immutable (push --force to replace it)")
    annotations = annotations_for(config_model, source=source, created=created_now())
    manifest = build_manifest(config, archive, annotations, file_name, kind)
    client.push_blob(ref.repository, archive.data, kind.layer_media_type)
    client.push_blob(ref.repository, config, kind.config_media_type)
    digest = client.push_manifest(ref.repository, version, manifest)
    tags = [version]
    if latest:
        client.push_manifest(ref.repository, "latest", manifest)
        tags.append("latest")
    for data in (archive.data, config, manifest):
        context.cache.store(sha256_digest(data), data)
    return PushResult(ref.at(version=version, digest=digest), digest, archive, tuple(tags))


def _push_version(ref: RoleRef) -> str:
    version = ref.version
    if ref.digest or not version or not is_version(version):
        raise GalaxyError(f"push needs a semver version as the tag: {ref.source}:1.0.0 (got {ref})")
    return version


def _source_of(role_dir: Path, galaxy_info: dict[str, object]) -> str | None:
    """Where the role's source lives: galaxy_info's repository, else the git remote of its directory."""
    for key in ("repository", "source"):
        if galaxy_info.get(key):
            return str(galaxy_info[key])
    try:
        found = subprocess.run(["git", "-C", str(role_dir), "remote", "get-url", "origin"], capture_output=True,
                               text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    url = found.stdout.strip() if found.returncode == 0 else ""
    return _without_credentials(url) or None


def _without_credentials(url: str) -> str:
    """A remote URL as it may be published: ``https://user:token@host/x`` loses its ``user:token@``."""
    parts = urlsplit(url)
    if parts.scheme and "@" in parts.netloc:
        return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))
    return url
