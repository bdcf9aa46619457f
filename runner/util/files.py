"""Writing files on the controller so that an interrupted run never leaves a half-written one.

Plans, reports, lock files and caches all go through here: a temporary file beside the target, fsync, rename.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from runner.errors import UserError


class FileWriteError(UserError):
    """A file the command was asked to write cannot be written: a directory in the way, no permission, no space."""


def atomic_write_bytes(path: Path | str, data: bytes, mode: int | None = 0o644) -> None:
    """Replace ``path`` with ``data`` in one step, creating its directory if needed.

    ``mode`` None makes an ordinary file (0o666 less the umask) rather than a fixed mode. A failure raises
    ``FileWriteError`` and leaves neither a partial file nor the temporary one.
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise FileWriteError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())  # mkstemp makes it private
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise FileWriteError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path | str, text: str, mode: int | None = 0o644) -> None:
    """``atomic_write_bytes`` of ``text`` in UTF-8."""
    atomic_write_bytes(path, text.encode("utf-8"), mode)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
