"""Building a collection tarball in the layout ``ansible-galaxy collection build`` makes, reproducibly.

The archive starts with ``MANIFEST.json`` (``collection_info`` from galaxy.yml and the sha256 of FILES.json) and
``FILES.json`` (every directory and file with the sha256 of each file), both written as Ansible writes them
(``json.dumps(..., indent=True)``), then the files. What Ansible leaves out is left out (galaxy.yml, ``.git``
and other version-control directories, ``*.pyc``, ``*.retry``, ``tests/output``, earlier builds, the
``build_ignore`` patterns). Unlike Ansible's, the build is reproducible: entries sorted, the fixed date and
owners of role archives, a gzip header without name or time; the same collection builds to the same digest, and
``ansible-galaxy collection install`` accepts it. A symlink is kept when it leads inside the collection; one
leading outside is an error rather than the copy of the outside file Ansible makes.
"""

from __future__ import annotations

import fnmatch
import hashlib
import io
import json
import os
import stat
import tarfile
from pathlib import Path
from typing import Any

from runner.galaxy.archive import RoleArchive, fixed_info, pack_entries
from runner.galaxy.collection_meta import FILES_JSON, MANIFEST_JSON, GalaxyYml, collection_info, read_galaxy_yml
from runner.galaxy.errors import GalaxyError

MANIFEST_FORMAT = 1
IGNORED_DIRS = frozenset({"CVS", ".bzr", ".hg", ".git", ".svn", "__pycache__", ".tox"})


def collection_file_name(meta: GalaxyYml) -> str:
    return f"{meta.namespace}-{meta.name}-{meta.version}.tar.gz"


def build_collection(directory: Path) -> tuple[GalaxyYml, RoleArchive]:
    """galaxy.yml of ``directory`` and the collection's reproducible archive."""
    meta = read_galaxy_yml(directory)
    ignore = ["MANIFEST.json", "FILES.json", "galaxy.yml", "galaxy.yaml", ".git", "*.pyc", "*.retry",
              "tests/output", f"{meta.namespace}-{meta.name}-*.tar.gz", *meta.build_ignore]
    paths = _walk(directory, directory, ignore)
    files: list[dict[str, Any]] = [_file_entry(".", "dir")]
    for path in paths:
        relative = path.relative_to(directory).as_posix()
        if path.is_dir():
            files.append(_file_entry(relative, "dir"))
        else:
            files.append(_file_entry(relative, "file", hashlib.sha256(path.read_bytes()).hexdigest()))
    files_json = json.dumps({"files": files, "format": MANIFEST_FORMAT}, indent=True).encode()
    manifest = {
        "collection_info": collection_info(meta),
        "file_manifest_file": {"name": FILES_JSON, "ftype": "file", "chksum_type": "sha256",
                               "chksum_sha256": hashlib.sha256(files_json).hexdigest(), "format": MANIFEST_FORMAT},
        "format": MANIFEST_FORMAT,
    }
    manifest_json = json.dumps(manifest, indent=True).encode()
    entries = [_data_entry(MANIFEST_JSON, manifest_json), _data_entry(FILES_JSON, files_json),
               *(_entry(directory, path) for path in paths)]
    return meta, pack_entries(entries)


def _file_entry(name: str, ftype: str, chksum: str | None = None) -> dict[str, Any]:
    return {"name": name, "ftype": ftype, "chksum_type": "sha256" if chksum else None, "chksum_sha256": chksum,
            "format": MANIFEST_FORMAT}


def _walk(directory: Path, root: Path, ignore: list[str]) -> list[Path]:
    found: list[Path] = []
    for child in sorted(directory.iterdir(), key=lambda path: path.name):
        relative = child.relative_to(root).as_posix()
        if any(fnmatch.fnmatch(relative, pattern) for pattern in ignore):
            continue
        if child.is_dir() and child.name in IGNORED_DIRS:
            continue
        if child.is_symlink():
            _check_link(root, child)
        found.append(child)
        if child.is_dir() and not child.is_symlink():
            found += _walk(child, root, ignore)
    return found


def _check_link(root: Path, link: Path) -> None:
    real_root, target = Path(os.path.realpath(root)), Path(os.path.realpath(link))
    if not target.exists():
        raise GalaxyError(f"{link} is a symlink to {os.readlink(link)}, which does not exist")
    if real_root not in target.parents:
        raise GalaxyError(f"{link} is a symlink to {os.readlink(link)}, outside the collection: a collection "
                          "keeps links inside itself only")


def _data_entry(name: str, data: bytes) -> tuple[tarfile.TarInfo, io.BytesIO]:
    info = fixed_info(name)
    info.size, info.mode = len(data), 0o644
    return info, io.BytesIO(data)


def _entry(root: Path, path: Path) -> tuple[tarfile.TarInfo, io.BytesIO | None]:
    info = fixed_info(path.relative_to(root).as_posix())
    mode = path.lstat().st_mode
    if stat.S_ISLNK(mode):
        info.type, info.mode = tarfile.SYMTYPE, 0o777
        info.linkname = os.path.relpath(os.path.realpath(path), os.path.realpath(path.parent))
        return info, None
    if stat.S_ISDIR(mode):
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        return info, None
    if not stat.S_ISREG(mode):
        raise GalaxyError(f"{path} is neither a file, a directory nor a symlink: a collection cannot hold it")
    content = path.read_bytes()
    info.size, info.mode = len(content), 0o755 if mode & stat.S_IXUSR else 0o644
    return info, io.BytesIO(content)
