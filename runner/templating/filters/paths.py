"""Path filters (controller-side string operations, except ``realpath`` which reads the controller's disk)."""

from __future__ import annotations

import os.path
from collections.abc import Sequence
from typing import Any

from runner.templating.errors import TemplateError


def path_join(paths: Any) -> str:
    """``['/etc', 'app', 'x.conf'] | path_join`` is "/etc/app/x.conf"."""
    if isinstance(paths, str):
        return os.path.join(paths)
    if isinstance(paths, Sequence):
        return os.path.join(*[str(part) for part in paths])
    raise TemplateError(f"path_join: expected a string or a list of strings, got {type(paths).__name__}")


FILTERS = {
    "basename": lambda path: os.path.basename(str(path)),
    "dirname": lambda path: os.path.dirname(str(path)),
    "expanduser": lambda path: os.path.expanduser(str(path)),
    "expandvars": lambda path: os.path.expandvars(str(path)),
    "realpath": lambda path: os.path.realpath(str(path)),
    "relpath": lambda path, start=os.curdir: os.path.relpath(str(path), str(start)),
    "splitext": lambda path: list(os.path.splitext(str(path))),
    "path_join": path_join,
}
