"""ansible-core's sdist at a version: downloaded with pip into a cache directory, verified, unpacked once.

The targets are GPLv3, so they are fetched at run time and never kept in this repository. Each version the
harness may run has the sha256 PyPI publishes for its sdist below (pip checks a pinned download against the
index's hash; this table checks it again, and keeps a cached file from being trusted by its name alone); a
download that does not match is deleted and the run stops.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

# The pin: CI's regression list, selection.yml and expected.txt are of this version's targets.
ANSIBLE_CORE_VERSION = "2.19.14"
SDIST_SHA256 = {
    "2.19.14": "1e7612788eaa6b3c87a3670ce86c64b830eba0ae2b3fcb25a772f276704163b4",
    "2.21.5": "65bb3148c58ebb843cd5074004c805f404f152114d98476dd823324616c9c6cb",
}
DEFAULT_CACHE = Path(os.environ.get("PROVISIONING_COMPAT_CACHE", Path.home() / ".cache" / "provisioning-compat"))


class SdistError(Exception):
    """The sdist could not be downloaded, is not the file PyPI published, or its version has no known sha256."""


def sdist_name(version: str) -> str:
    return f"ansible_core-{version}.tar.gz"


def published_sha256(version: str) -> str:
    try:
        return SDIST_SHA256[version]
    except KeyError:
        known = ", ".join(SDIST_SHA256)
        raise SdistError(f"no sha256 known for ansible-core {version}'s sdist (known: {known}); add PyPI's "
                         "to SDIST_SHA256 in bench/compat/sdist.py") from None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def download(version: str = ANSIBLE_CORE_VERSION, cache: Path = DEFAULT_CACHE) -> Path:
    """The verified sdist in ``cache``, downloaded by pip if it is not there yet."""
    expected = published_sha256(version)
    archive = cache / sdist_name(version)
    if not archive.exists():
        cache.mkdir(parents=True, exist_ok=True)
        # into a private directory first: an interrupted download never sits where a later run would trust it
        partial = cache / f".download-{version}"
        shutil.rmtree(partial, ignore_errors=True)
        # --ignore-requires-python: only the targets are wanted, and a newer ansible-core may need a newer
        # Python than this harness runs on (2.20 and later need 3.12 on the controller)
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                   "--ignore-requires-python", "--dest", str(partial), f"ansible-core=={version}"]
        result = subprocess.run(command, capture_output=True, text=True)
        fetched = partial / sdist_name(version)
        if result.returncode != 0 or not fetched.exists():
            shutil.rmtree(partial, ignore_errors=True)
            raise SdistError(f"pip download of ansible-core {version} failed:\n{result.stderr.strip()}")
        verify(fetched, expected)
        fetched.rename(archive)
        shutil.rmtree(partial, ignore_errors=True)
    verify(archive, expected)
    return archive


def verify(archive: Path, expected: str) -> None:
    actual = sha256_of(archive)
    if actual != expected:
        archive.unlink()
        raise SdistError(f"{archive.name}: sha256 {actual} is not PyPI's published {expected}; deleted it")


def unpacked(version: str = ANSIBLE_CORE_VERSION, cache: Path = DEFAULT_CACHE) -> Path:
    """The root of the unpacked sdist (``.../ansible_core-X.Y.Z``), unpacking the verified archive once."""
    root = cache / f"ansible_core-{version}"
    if (root / "PKG-INFO").exists():
        return root
    archive = download(version, cache)
    staging = cache / f".unpack-{version}"
    shutil.rmtree(staging, ignore_errors=True)
    with tarfile.open(archive) as tar:
        tar.extractall(staging, filter="tar")
    shutil.rmtree(root, ignore_errors=True)
    (staging / root.name).rename(root)
    shutil.rmtree(staging, ignore_errors=True)
    return root


def targets_dir(version: str = ANSIBLE_CORE_VERSION, cache: Path = DEFAULT_CACHE) -> Path:
    return unpacked(version, cache) / "test" / "integration" / "targets"
