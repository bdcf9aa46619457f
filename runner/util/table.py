"""Plain-text tables for terminal listings: columns padded to their widest cell, the last one left ragged."""

from __future__ import annotations

from collections.abc import Sequence


def render_table(rows: Sequence[Sequence[str]]) -> str:
    """``rows[0]`` is the header; every row has the same number of cells."""
    if not rows:
        return ""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    return "\n".join("  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]])
                     .rstrip() for row in rows)
