"""The content cache: manifests, configs and role archives stored by digest, so a second install needs no registry.

Laid out as an OCI image layout's blob store (``blobs/sha256/<hex>``). Content is checked against its digest
when it enters and again whenever it is read (the seed schema's ``verify_cached``): an entry that no longer
matches is dropped and counts as missing, so corruption costs a download, never a wrong install.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from runner.galaxy.artifact import verify_digest
from runner.galaxy.reference import DIGEST
from runner.util.files import atomic_write_bytes


class ContentCache:
    def __init__(self, root: Path):
        self.root = root

    def path(self, digest: str) -> Path:
        if not DIGEST.match(digest):
            raise ValueError(f"not a sha256 digest: {digest!r}")
        return self.root / "blobs" / "sha256" / digest.split(":", 1)[1]

    def find(self, digest: str) -> Path | None:
        """The cached file holding ``digest``, checked; None when absent or no longer matching."""
        path = self.path(digest)
        if not path.is_file():
            return None
        if _file_digest(path) != digest:
            path.unlink(missing_ok=True)
            return None
        return path

    def read(self, digest: str) -> bytes | None:
        path = self.find(digest)
        return path.read_bytes() if path is not None else None

    def store(self, digest: str, data: bytes) -> Path:
        verify_digest(data, digest, f"content stored as {digest}")
        path = self.path(digest)
        atomic_write_bytes(path, data)
        return path

    def download_target(self, digest: str) -> Path:
        """Where a verified download of ``digest`` is moved to (the caller checks it while it streams)."""
        path = self.path(digest)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path


def _file_digest(path: Path) -> str:
    hasher = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            hasher.update(chunk)
    return "sha256:" + hasher.hexdigest()

