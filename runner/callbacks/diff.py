"""``--diff``: a module's ``diff`` entries as coloured unified diffs, the way Ansible prints them.

A module returns ``diff`` as one dict or a list of dicts, each with ``before``/``after`` (text, or a dict that is
shown as indented JSON), optional ``before_header``/``after_header`` (usually the path), or ``prepared`` text
that is printed as it is; ``src_binary``/``dst_binary``/``src_larger``/``dst_larger`` say why none was made.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import Any

from runner.callbacks.colors import paint

CONTEXT_LINES = 3  # Ansible's DIFF_CONTEXT
_NO_NEWLINE = "\n\\ No newline at end of file\n"
_LINE_STATES = (("+", "diff_add"), ("-", "diff_remove"), ("@@", "diff_header"))


def render_diff(diff: Mapping[str, Any] | list[Any] | None, *, color: bool = False) -> str:
    """The text of every diff entry, each unified diff followed by a blank line; '' when nothing differs."""
    entries = diff if isinstance(diff, list) else [diff]
    return "".join(_render_entry(entry, color) for entry in entries if isinstance(entry, Mapping))


def _render_entry(entry: Mapping[str, Any], color: bool) -> str:
    parts = []
    if "dst_binary" in entry:
        parts.append("diff skipped: destination file appears to be binary\n")
    if "src_binary" in entry:
        parts.append("diff skipped: source file appears to be binary\n")
    if "dst_larger" in entry:
        parts.append(f"diff skipped: destination file size is greater than {entry['dst_larger']}\n")
    if "src_larger" in entry:
        parts.append(f"diff skipped: source file size is greater than {entry['src_larger']}\n")
    if "before" in entry and "after" in entry:
        parts.append(_unified(entry, color))
    if entry.get("prepared"):
        parts.append(str(entry["prepared"]))
    return "".join(parts)


def _unified(entry: Mapping[str, Any], color: bool) -> str:
    before = _lines(entry["before"])
    after = _lines(entry["after"])
    before_header = f"before: {entry['before_header']}" if "before_header" in entry else "before"
    after_header = f"after: {entry['after_header']}" if "after_header" in entry else "after"
    lines = list(difflib.unified_diff(before, after, fromfile=before_header, tofile=after_header,
                                      fromfiledate="", tofiledate="", n=CONTEXT_LINES))
    if not lines:
        return ""
    return "".join(_paint_line(line, color) for line in lines) + "\n"


def _lines(side: Any) -> list[str]:
    """One side of the diff as lines that keep their ends; dicts become JSON, as Ansible shows them."""
    if isinstance(side, Mapping):
        text = json.dumps(side, sort_keys=True, indent=4, separators=(",", ": "), default=str) + "\n"
    elif side is None:
        text = ""
    else:
        text = str(side)
    lines = text.splitlines(True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += _NO_NEWLINE
    return lines


def _paint_line(line: str, color: bool) -> str:
    body = line.rstrip("\n")
    for prefix, state in _LINE_STATES:
        if body.startswith(prefix):
            return paint(body, state, color) + line[len(body):]
    return line
