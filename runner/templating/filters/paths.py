"""Path filters (controller-side string operations, except ``realpath`` and ``fileglob`` which read the
controller's disk); the ``win_`` ones read paths the Windows way."""

from __future__ import annotations

import glob
import ntpath
import os.path
from collections.abc import Callable, Sequence
from typing import Any

from runner.templating.errors import TemplateError


def path_join(paths: Any) -> str:
    """``['/etc', 'app', 'x.conf'] | path_join`` is "/etc/app/x.conf"."""
    if isinstance(paths, str):
        return os.path.join(paths)
    if isinstance(paths, Sequence):
        return os.path.join(*[str(part) for part in paths])
    raise TemplateError(f"path_join: expected a string or a list of strings, got {type(paths).__name__}")


def commonpath(paths: Any) -> str:
    """The longest path ``paths`` all start with."""
    if isinstance(paths, str) or not isinstance(paths, Sequence):
        raise TemplateError(f"commonpath expects a list of paths, got {type(paths).__name__}")
    try:
        return os.path.commonpath([str(path) for path in paths])
    except ValueError as exc:  # no paths, or absolute and relative mixed
        raise TemplateError(f"commonpath: {exc}") from None


def fileglob(pattern: Any) -> list[str]:
    """The regular files on the controller that match a shell pattern."""
    return [path for path in sorted(glob.glob(str(pattern))) if os.path.isfile(path)]


FILTERS: dict[str, Callable[..., Any]] = {
    "basename": lambda path: os.path.basename(str(path)),
    "dirname": lambda path: os.path.dirname(str(path)),
    "expanduser": lambda path: os.path.expanduser(str(path)),
    "expandvars": lambda path: os.path.expandvars(str(path)),
    "realpath": lambda path: os.path.realpath(str(path)),
    "relpath": lambda path, start=os.curdir: os.path.relpath(str(path), str(start)),
    "splitext": lambda path: list(os.path.splitext(str(path))),
    "path_join": path_join,
    "normpath": lambda path: os.path.normpath(str(path)),
    "commonpath": commonpath,
    "fileglob": fileglob,
    "win_basename": lambda path: ntpath.basename(str(path)),
    "win_dirname": lambda path: ntpath.dirname(str(path)),
    "win_splitdrive": lambda path: list(ntpath.splitdrive(str(path))),
}
