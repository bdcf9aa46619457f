"""The warm controller's files in the private directory, named per install: two virtualenvs (or checkouts) of
the project each get their own, so neither replaces the other's at every run."""

from __future__ import annotations

import os
import sys
import zlib

TYPE_CHECKING = False  # typing's, without importing typing: the warm client imports this module at every start
if TYPE_CHECKING:
    from pathlib import Path

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def install_key() -> str:
    """This install: the interpreter running it and where the package is."""
    return f"{zlib.crc32((sys.executable + chr(0) + PACKAGE_DIR).encode()):08x}"


def socket_name() -> str:
    return f"warm-{install_key()}.sock"


def socket_path(directory: Path) -> Path:
    return directory / socket_name()


def lock_path(directory: Path) -> Path:
    return directory / f"warm-{install_key()}.lock"


def log_path(directory: Path) -> Path:
    return directory / f"warm-{install_key()}.log"


def modules_path(directory: Path) -> Path:
    return directory / f"warm-{install_key()}.modules"
