"""Which modules a warm controller imports ahead of the runs it serves: those a run imported (the cold run that
started it, then every run it serves reports its own), taken from the interpreter's library, the installed
packages and the project's packages only. Code of the user's (filter plugins, collections, modules next to a
playbook) is never imported ahead: it is read afresh by each run, as it may change between them."""

from __future__ import annotations

import importlib
import json
import os
import site
import sys
import sysconfig
from collections.abc import Callable, Iterable
from pathlib import Path

from runner.warm.place import PACKAGE_DIR, modules_path
from runner.warm.sources import PACKAGES

_NEVER = frozenset(["__main__", "__mp_main__"])
# Packages that read the run's configuration when they are imported: ansible-core's ``ansible.constants`` and
# plugin loaders take ANSIBLE_* variables, the working directory's ansible.cfg and the collection finder's paths at
# import. Imported ahead, a later run would see the settings of the run that taught the list, so each run imports
# them itself (only the runs that use ansible-core pay for it).
_NEVER_PACKAGES = frozenset(["ansible", "ansible_collections"])


def _roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    project = os.path.dirname(PACKAGE_DIR)
    return tuple(os.path.join(os.path.abspath(path), "") for path in (
        paths["stdlib"], paths["platstdlib"], *site.getsitepackages(),
        *(os.path.join(project, package) for package in PACKAGES)))


def preloadable(names: Iterable[str]) -> list[str]:
    """The modules among ``names`` (loaded in this process) that a warm controller may import ahead, in the
    order given (the order they were imported in, which the imports' own order follows)."""
    roots = _roots()
    chosen = []
    for name in names:
        module = sys.modules.get(name)
        if module is None or name in _NEVER or name.split(".")[0] in _NEVER_PACKAGES:
            continue
        path = getattr(module, "__file__", None)
        if path is None:
            if name in sys.builtin_module_names:
                chosen.append(name)
        elif os.path.abspath(path).startswith(roots):
            chosen.append(name)
    return chosen


def import_ahead(names: Iterable[str], stopping: Callable[[], bool]) -> int:
    """Import what is not loaded yet of ``names``, until ``stopping()``; a module that does not import (one that
    only imports as part of another, or is gone) is left to the run. Returns how many were imported."""
    imported = 0
    for name in names:
        if stopping():
            break
        if name in sys.modules or name in _NEVER or name.split(".")[0] in _NEVER_PACKAGES:
            continue  # _NEVER_PACKAGES too: a list remembered by an older build may name them
        try:
            importlib.import_module(name)
            imported += 1
        except (Exception, SystemExit):  # whatever a module raises on import, the run meets it itself
            continue
    return imported


def remembered_modules(directory: Path) -> list[str]:
    """The modules this install's runs imported, as the last controller learnt them (none after a reboot: the
    directory is emptied), so that a new controller imports them while the cold run that starts it works."""
    try:
        names = json.loads(modules_path(directory).read_text())
    except (OSError, ValueError):
        return []
    return [name for name in names if isinstance(name, str)] if isinstance(names, list) else []


def remember_modules(directory: Path, names: list[str]) -> None:
    path = modules_path(directory)
    partial = path.with_name(path.name + ".new")
    try:
        partial.write_text(json.dumps(names))
        partial.replace(path)
    except OSError:
        pass  # the next controller learns them again
