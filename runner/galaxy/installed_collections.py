"""Collections installed in a collections path, where ansible-core looks: ``PATH/ansible_collections/NS/NAME``.

A collection is unpacked beside its target and moved into place only once unpacking succeeded and every file
matched its sha256 in FILES.json (as ``ansible-galaxy collection install`` checks), so a refused archive leaves
the installed collection as it was. The directory holds exactly the collection's files (``ansible-galaxy
collection verify`` finds nothing added); what was installed from where, with which digest, is recorded beside
it in ``PATH/ansible_collections/.provisioning/NS.NAME.yml``, a name no namespace can have.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from runner.errors import UserError
from runner.galaxy.collection_meta import FILES_JSON, NAME_PART, read_collection
from runner.galaxy.errors import GalaxyError, VerificationError
from runner.galaxy.extract import extract_archive
from runner.galaxy.yamltext import to_yaml
from runner.loader.yaml import load_yaml_file
from runner.util.files import atomic_write_text

ROOT = "ansible_collections"
RECORDS = ".provisioning"


@dataclass(frozen=True)
class InstalledCollection:
    name: str  # NAMESPACE.NAME
    path: Path
    version: str | None = None
    source: str | None = None
    digest: str | None = None


def collection_path(collections_dir: Path, fqcn: str) -> Path:
    namespace, _, name = fqcn.partition(".")
    if not NAME_PART.match(namespace) or not NAME_PART.match(name):
        raise GalaxyError(f"'{fqcn}' is not a collection name (expected NAMESPACE.NAME)")
    return collections_dir / ROOT / namespace / name


def _record_path(collections_dir: Path, fqcn: str) -> Path:
    return collections_dir / ROOT / RECORDS / f"{fqcn}.yml"


def read_installed_collection(collections_dir: Path, fqcn: str) -> InstalledCollection:
    """What is installed as ``fqcn``; source and digest are None for one not installed by us."""
    path = collection_path(collections_dir, fqcn)
    version = None
    if path.is_dir():
        try:
            version = read_collection(path).version
        except UserError:
            version = None
    record: object = None
    if _record_path(collections_dir, fqcn).is_file() and path.is_dir():
        try:
            record = load_yaml_file(_record_path(collections_dir, fqcn))
        except UserError:
            record = None
    info = record if isinstance(record, dict) else {}
    digest = info.get("digest") if info.get("version") == version else None
    return InstalledCollection(fqcn, path, version, _text(info.get("source")), _text(digest))


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def install_collection(archive: Path, collections_dir: Path, installed: InstalledCollection, max_size: int) -> Path:
    """Unpack ``archive`` as the collection ``installed.name``, replacing what is there only once it is whole."""
    target = collection_path(collections_dir, installed.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.installing.", dir=target.parent))
    try:
        unpacked = staging / target.name
        extract_archive(archive, unpacked, max_size, installed.source)
        _check_files(unpacked, installed.name)
        if target.is_symlink() or target.is_file():
            raise GalaxyError(f"{target} exists and is not a collection directory: remove it first")
        if target.exists():
            os.rename(target, staging / f"{target.name}.replaced")
        os.rename(unpacked, target)
        # The collection's own version (a git collection's requirement names a branch, not a version), so the
        # record is told apart from one ansible-galaxy later installed over it.
        record = {"install_date": datetime.now(UTC).strftime("%c"), "version": read_collection(target).version,
                  "source": installed.source, "digest": installed.digest}
        atomic_write_text(_record_path(collections_dir, installed.name), to_yaml(record))
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _check_files(directory: Path, fqcn: str) -> None:
    """Every file FILES.json lists is there with its sha256; the collection is the one it claims to be."""
    found = read_collection(directory)
    if found.fqcn != fqcn:
        raise GalaxyError(f"the archive installed as {fqcn} holds the collection {found.fqcn}")
    listing = directory / FILES_JSON
    if not listing.is_file():
        raise GalaxyError(f"the archive of {fqcn} has no {FILES_JSON}: it is not a built collection")
    try:
        files = json.loads(listing.read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise GalaxyError(f"{FILES_JSON} of {fqcn} cannot be read ({exc})") from None
    for entry in files:
        if entry.get("ftype") != "file":
            continue
        name = str(entry.get("name"))
        if name.startswith("/") or ".." in name.split("/"):
            raise VerificationError(f"{FILES_JSON} of {fqcn} lists '{name}', outside the collection")
        path = directory / name
        actual = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
        if actual != entry.get("chksum_sha256"):
            raise VerificationError(f"{fqcn}: {entry.get('name')} does not match its sha256 in {FILES_JSON}; "
                                    "nothing was installed")


def installed_collections(collections_dir: Path) -> list[InstalledCollection]:
    """The collections in one collections path, by name."""
    root = collections_dir / ROOT
    if not root.is_dir():
        return []
    found = []
    for namespace in sorted(root.iterdir()):
        if not namespace.is_dir() or not NAME_PART.match(namespace.name):
            continue
        for collection in sorted(namespace.iterdir()):
            if collection.is_dir() and NAME_PART.match(collection.name):
                found.append(read_installed_collection(collections_dir, f"{namespace.name}.{collection.name}"))
    return found
