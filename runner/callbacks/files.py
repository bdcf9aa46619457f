"""Writing a report so that readers never see half of it: a temporary file beside it, then a rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from runner.errors import UserError


def write_atomically(path: str | Path, data: str) -> None:
    """Replace ``path`` with ``data`` (UTF-8) in one step; a failure leaves neither a partial nor a temp file."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise UserError(f"cannot write the report {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private; a report is an ordinary file
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise UserError(f"cannot write the report {target}: {exc.strerror or exc}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
