"""A local golden image's root: a stopped server's upper layer captured as a reusable lower layer.

The capture is a copy of the upper directory (whiteouts and overlayfs' opaque-directory attributes included, so
what the server deleted stays deleted), without the files that make the build server itself (its host key, its
SSH config and authorized keys, its name): a server started from the layer writes its own. The copy is named by
the SHA-256 of its content (``tree_digest``) and moved into place by one rename, so a layer in the store is
always whole, and two captures of the same content are one layer.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

from runner.providers.base import ProviderError
from runner.providers.local_identity import BuildIdentity, templatize
from runner.testenv.layer import AUTHORIZED_KEYS, HOST_KEY, SSHD_CONFIG

# The build server's own identity: never part of an image (every server from it writes its own).
IDENTITY_FILES = ("/etc/hostname", SSHD_CONFIG, HOST_KEY, HOST_KEY + ".pub", AUTHORIZED_KEYS)
# Downloaded packages the image does not need once they are installed.
PACKAGE_CACHE = "/var/cache/apt/archives"
OPAQUE_XATTR = "trusted.overlay.opaque"
CHUNK = 1 << 20


@dataclass(frozen=True)
class Layer:
    """A captured layer in the store: its directory, its content digest and its size in bytes."""

    path: Path
    digest: str
    size: int


def capture_layer(upper: Path, store: Path, *, drop_package_cache: bool = True,
                  identity: BuildIdentity | None = None) -> Layer:
    """Copy ``upper`` into ``store`` as a content-named layer (``store/<sha256>``) and return it. ``identity``:
    the build server's, made tokens that each server from the layer renders as its own
    (``runner.providers.local_identity``)."""
    store.mkdir(parents=True, exist_ok=True)
    staging = store / f".capture-{uuid.uuid4().hex}"
    try:
        # cp -a keeps what overlayfs needs: owners, modes, device nodes (whiteouts) and trusted.* attributes.
        done = subprocess.run(["cp", "-a", "--", str(upper), str(staging)], capture_output=True, text=True)
        if done.returncode != 0:
            raise ProviderError(f"cannot copy {upper} into the image store: {done.stderr.strip()}")
        for path in IDENTITY_FILES:
            (staging / path.lstrip("/")).unlink(missing_ok=True)
        if drop_package_cache:
            for package in (staging / PACKAGE_CACHE.lstrip("/")).glob("*.deb"):
                package.unlink()
        if identity is not None:
            templatize(staging, identity)
        digest = tree_digest(staging)
        target = store / digest
        if target.is_dir():
            shutil.rmtree(staging)  # the same content was captured before: one layer serves both
        else:
            staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Layer(target, digest, tree_size(target))


def tree_digest(root: Path) -> str:
    """SHA-256 over every entry below ``root`` in name order: its path, type, mode, owner, and its content (a
    file's bytes, a link's target, a device's numbers, a directory's opaque attribute)."""
    digest = hashlib.sha256()
    for path in _walk(root):
        info = path.lstat()
        relative = path.relative_to(root).as_posix()
        digest.update(f"{relative}\0{stat.S_IFMT(info.st_mode)}\0{info.st_mode & 0o7777}\0"
                      f"{info.st_uid}\0{info.st_gid}\0".encode())
        if stat.S_ISREG(info.st_mode):
            with open(path, "rb") as handle:
                while chunk := handle.read(CHUNK):
                    digest.update(chunk)
        elif stat.S_ISLNK(info.st_mode):
            digest.update(os.readlink(path).encode())
        elif stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode):
            digest.update(f"{os.major(info.st_rdev)}:{os.minor(info.st_rdev)}".encode())
        elif stat.S_ISDIR(info.st_mode):
            digest.update(_opaque(path))
        digest.update(b"\n")
    return digest.hexdigest()


def tree_size(root: Path) -> int:
    """Bytes of the regular files below ``root``."""
    return sum(path.lstat().st_size for path in _walk(root) if path.is_file() and not path.is_symlink())


def _walk(root: Path) -> list[Path]:
    found: list[Path] = []
    for directory, names, files in os.walk(root):
        names.sort()
        base = Path(directory)
        found += [base / name for name in sorted([*names, *files])]
    return sorted(found)


def _opaque(path: Path) -> bytes:
    try:
        return os.getxattr(path, OPAQUE_XATTR, follow_symlinks=False)
    except OSError:
        return b""
