"""What a compile read: every YAML file the loader opened, its content hash, and whether it held secrets.

The plan cache (``runner.compiler.plan_cache``) keys a compiled plan by these: a later run reuses the plan only
while every file still hashes the same. Recording is off unless a caller asks for it, so reading costs nothing
more in the common case.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ReadLog:
    # path (absolute) -> sha256 of the bytes read, in the order first read
    files: dict[str, str] = field(default_factory=dict)
    # files whose content was a secret once read: encrypted as a whole (vault, age) or a SOPS document
    secret: set[str] = field(default_factory=set)


_current: ReadLog | None = None


@contextmanager
def recording_reads() -> Iterator[ReadLog]:
    """Record the files read inside the ``with`` (nested recordings share the outer log)."""
    global _current
    outer = _current
    log = outer if outer is not None else ReadLog()
    _current = log
    try:
        yield log
    finally:
        _current = outer


def note_read(path: str | Path, data: bytes, *, secret: bool = False) -> None:
    if _current is None:
        return
    name = str(Path(path).absolute())
    _current.files.setdefault(name, hashlib.sha256(data).hexdigest())
    if secret:
        _current.secret.add(name)


def note_secret(path: str | Path) -> None:
    """``path``, already read, turned out to hold secrets (a SOPS document is seen as one only once parsed)."""
    if _current is not None:
        _current.secret.add(str(Path(path).absolute()))
