"""Publishing a collection to a registry: from its source directory (built as ``collection build`` builds it) or
from a tarball ``ansible-galaxy collection build`` made, pushed as it is.

The reference's last part is the collection's ``NAMESPACE.NAME`` (``oci://HOST/team/demo.tools``); its tag is
the collection's version, taken from galaxy.yml or MANIFEST.json when the reference gives none.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from runner.galaxy.archive import RoleArchive, sha256_digest
from runner.galaxy.artifact import COLLECTION, RoleConfig
from runner.galaxy.collection_build import build_collection
from runner.galaxy.collection_meta import CollectionInfo, read_collection
from runner.galaxy.context import GalaxyContext
from runner.galaxy.errors import GalaxyError
from runner.galaxy.extract import extract_archive
from runner.galaxy.publish import PushResult, push_artifact
from runner.galaxy.reference import RoleRef


def collection_config(info: CollectionInfo) -> RoleConfig:
    """The artifact's config blob: what resolving needs without downloading (the role config's fields, with
    MANIFEST.json's collection_info as galaxy_info)."""
    return RoleConfig(name=info.fqcn, version=info.version, description=str(info.info.get("description") or ""),
                      dependencies=info.as_dependencies(), galaxy_info=info.info)


def load_collection(path: Path, max_size: int) -> tuple[CollectionInfo, RoleArchive]:
    """A collection directory built, or a built tarball read (checked by the archive rules), with its metadata."""
    if path.is_dir():
        _, archive = build_collection(path)
        return read_collection(path), archive
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GalaxyError(f"cannot read {path}: {exc.strerror}") from None
    with tempfile.TemporaryDirectory(prefix="provisioning-collection-") as scratch:
        extract_archive(path, Path(scratch) / "collection", max_size)
        info = read_collection(Path(scratch) / "collection")
    return info, RoleArchive(data, sha256_digest(data), 0)


def push_collection(context: GalaxyContext, path: Path, ref: RoleRef, *, force: bool = False, latest: bool = False,
                    source: str | None = None) -> PushResult:
    info, archive = load_collection(path, context.max_archive_size)
    if ref.name != info.fqcn:
        raise GalaxyError(f"{path} is the collection {info.fqcn}, and {ref.source} names {ref.name}: the "
                          f"reference ends with the collection's name ({ref.source.rpartition('/')[0]}/{info.fqcn})")
    if ref.version and ref.version != info.version:
        raise GalaxyError(f"{path} is version {info.version} of {info.fqcn}, not {ref.version}")
    return push_artifact(context, ref.at(version=info.version), archive, collection_config(info), COLLECTION,
                         f"{info.namespace}-{info.name}-{info.version}.tar.gz", force=force, latest=latest,
                         source=source or info.info.get("repository"))
