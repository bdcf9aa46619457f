"""Files in the user's cache directory (``~/.cache/provisioning``, ``$XDG_CACHE_HOME`` honoured) that later
commands trust: named by a hash of what made them, read only when they are the user's own alone to write, written
atomically and privately, and files of other versions pruned once stale.

The validator cache (``model_cache``) and the plan cache (``runner.compiler.plan_cache``) keep their files here.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Sequence
from pathlib import Path

from runner.util.files import atomic_write_bytes

_ROOT = Path(__file__).resolve().parents[2]  # the directory holding the runner package
# Files of other versions are removed when a new one is written, once they have not been rewritten for this long:
# several installed versions (or checkouts) can share the cache without taking turns rebuilding.
STALE_AFTER = 30 * 24 * 3600


def cache_directory(kind: str) -> Path:
    """``<cache>/provisioning/<kind>``; ``RuntimeError`` when there is no home directory to put it in."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "provisioning" / kind


def add_sources(digest: hashlib._Hash, names: Sequence[str]) -> None:
    """Hash the code of ``names`` (files, or directories of ``.py`` files, relative to the package's parent) into
    ``digest``: a cached file made by other code is never found. ``OSError`` when one cannot be read."""
    for source in _source_files(names):
        digest.update(source.relative_to(_ROOT).as_posix().encode() + b"\0" + source.read_bytes())


def _source_files(names: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for name in names:
        path = _ROOT / name
        files += sorted(path.glob("*.py")) if path.is_dir() else [path]
    return files


def read_own_file(path: Path) -> bytes | None:
    """The content of ``path``, or None when it is missing, unreadable, or it or its directory is not the user's
    own alone to write (someone else could have put what it says there)."""
    try:
        with path.open("rb") as handle:
            for info in (os.stat(path.parent), os.fstat(handle.fileno())):
                if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                    return None
            return handle.read()
    except OSError:
        return None


def write_own_file(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` (0600, in a 0700 directory); remove its directory's stale files of the same
    suffix. ``FileWriteError`` or ``OSError`` when it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write_bytes(path, data, mode=0o600)
    for other in path.parent.glob(f"*{path.suffix}"):
        try:
            if other != path and other.stat().st_mtime < time.time() - STALE_AFTER:
                other.unlink(missing_ok=True)
        except OSError:
            continue  # removed meanwhile by another command
