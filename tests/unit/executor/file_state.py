"""What a directory holds, to compare before and after a run: every path under it with its mode and content."""

from __future__ import annotations

from pathlib import Path


def snapshot(root: Path) -> dict[str, tuple[int, bytes | None]]:
    """Relative path -> (mode bits, file bytes or None for a directory)."""
    return {str(path.relative_to(root)): (path.stat().st_mode & 0o7777, path.read_bytes() if path.is_file() else None)
            for path in sorted(root.rglob("*"))}
