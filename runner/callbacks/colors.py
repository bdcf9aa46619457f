"""Ansible's colours: green ok, yellow changed, red failed/unreachable, cyan skipped, purple warnings."""

from __future__ import annotations

import os
import sys
from typing import TextIO

CODES = {"ok": "32", "changed": "33", "failed": "31", "unreachable": "1;31", "skipped": "36", "warning": "35",
         "deprecated": "35", "header": "1", "diff_add": "32", "diff_remove": "31", "diff_header": "36",
         "included": "36", "debug": "1;30", "verbose": "34"}


def use_color(stream: TextIO = sys.stdout, nocolor: bool = False, force_color: bool = False) -> bool:
    """Colour on a terminal; never with ``nocolor`` (which wins), always with ``force_color`` (the settings)."""
    if nocolor or os.environ.get("NO_COLOR") or os.environ.get("PROVISIONING_NOCOLOR"):
        return False
    if force_color or os.environ.get("PROVISIONING_FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def paint(text: str, state: str | None, enabled: bool) -> str:
    """``text`` in the colour of ``state``; each line on its own, as Ansible does, so pagers keep the colour."""
    if not enabled or state not in CODES:
        return text
    return "\n".join(f"\033[{CODES[state]}m{line}\033[0m" for line in text.split("\n"))
