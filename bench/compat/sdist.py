"""The pinned ansible-core sdist: downloaded with pip into a cache directory, verified, unpacked once.

The targets are GPLv3, so they are fetched at run time and never kept in this repository. The sha256 below is
the one PyPI publishes for the file; a download that does not match it is deleted and the run stops.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ANSIBLE_CORE_VERSION = "2.19.14"
SDIST_NAME = f"ansible_core-{ANSIBLE_CORE_VERSION}.tar.gz"
SDIST_SHA256 = "1e7612788eaa6b3c87a3670ce86c64b830eba0ae2b3fcb25a772f276704163b4"
DEFAULT_CACHE = Path(os.environ.get("PROVISIONING_COMPAT_CACHE", Path.home() / ".cache" / "provisioning-compat"))


class SdistError(Exception):
    """The sdist could not be downloaded, or is not the file PyPI published."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def download(cache: Path = DEFAULT_CACHE) -> Path:
    """The verified sdist in ``cache``, downloaded by pip if it is not there yet."""
    archive = cache / SDIST_NAME
    if not archive.exists():
        cache.mkdir(parents=True, exist_ok=True)
        # into a private directory first: an interrupted download never sits where a later run would trust it
        partial = cache / ".download"
        shutil.rmtree(partial, ignore_errors=True)
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                   "--dest", str(partial), f"ansible-core=={ANSIBLE_CORE_VERSION}"]
        result = subprocess.run(command, capture_output=True, text=True)
        fetched = partial / SDIST_NAME
        if result.returncode != 0 or not fetched.exists():
            shutil.rmtree(partial, ignore_errors=True)
            raise SdistError(f"pip download of ansible-core {ANSIBLE_CORE_VERSION} failed:\n{result.stderr.strip()}")
        verify(fetched)
        fetched.rename(archive)
        shutil.rmtree(partial, ignore_errors=True)
    verify(archive)
    return archive


def verify(archive: Path) -> None:
    actual = sha256_of(archive)
    if actual != SDIST_SHA256:
        archive.unlink()
        raise SdistError(f"{archive.name}: sha256 {actual} is not PyPI's published {SDIST_SHA256}; deleted it")


def unpacked(cache: Path = DEFAULT_CACHE) -> Path:
    """The root of the unpacked sdist (``.../ansible_core-X.Y.Z``), unpacking the verified archive once."""
    root = cache / f"ansible_core-{ANSIBLE_CORE_VERSION}"
    if (root / "PKG-INFO").exists():
        return root
    archive = download(cache)
    staging = cache / ".unpack"
    shutil.rmtree(staging, ignore_errors=True)
    with tarfile.open(archive) as tar:
        tar.extractall(staging, filter="tar")
    shutil.rmtree(root, ignore_errors=True)
    (staging / root.name).rename(root)
    shutil.rmtree(staging, ignore_errors=True)
    return root


def targets_dir(cache: Path = DEFAULT_CACHE) -> Path:
    return unpacked(cache) / "test" / "integration" / "targets"
