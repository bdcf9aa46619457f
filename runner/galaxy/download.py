"""Downloading a tarball source (``http``, ``https`` or ``file`` URL) into the content cache, by its sha256.

The download streams into a temporary file beside its cache entry while its digest is computed and its size
counted: one larger than ``max_size`` is abandoned before it fills the disk, and one that is not the digest the
lock expects is never stored. Only a complete, checked file is renamed into the cache.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path
from typing import BinaryIO

from runner.galaxy.cache import ContentCache
from runner.galaxy.errors import GalaxyError, VerificationError
from runner.galaxy.extract import oversized

DOWNLOAD_TIMEOUT = 60.0
CHUNK = 1 << 20


def download(url: str, cache: ContentCache, max_size: int, expected: str | None = None) -> tuple[str, Path]:
    """``url``'s content in the cache: its digest and cached file. ``expected`` (a lock's digest) must match."""
    if expected is not None:
        found = cache.find(expected)
        if found is not None:
            return expected, found
    directory = cache.root / "downloads"
    directory.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".download.", dir=directory)
    try:
        with os.fdopen(handle, "wb") as output:
            digest = _stream(url, output, max_size)
        if expected is not None and digest != expected:
            raise VerificationError(f"{url} is {digest}, not {expected} as the lock file says: its content changed "
                                    "since it was locked (install without --frozen, or -U, to take the new one)")
        target = cache.download_target(digest)
        os.replace(temporary, target)
        return digest, target
    finally:
        Path(temporary).unlink(missing_ok=True)


def _stream(url: str, output: BinaryIO, max_size: int) -> str:
    hasher = hashlib.sha256()
    size = 0
    try:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response:
            while chunk := response.read(CHUNK):
                size += len(chunk)
                if size > max_size:
                    raise oversized(max_size, f"more than {max_size} bytes downloaded", url)
                hasher.update(chunk)
                output.write(chunk)
    except urllib.error.HTTPError as exc:
        raise GalaxyError(f"cannot download {url}: HTTP {exc.code} {exc.reason}") from None
    except urllib.error.URLError as exc:
        raise GalaxyError(f"cannot download {url}: {exc.reason}") from None
    except (OSError, ValueError) as exc:
        raise GalaxyError(f"cannot download {url}: {exc}") from None
    return "sha256:" + hasher.hexdigest()
