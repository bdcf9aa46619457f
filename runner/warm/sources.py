"""What a warm controller was started from, so that it never serves a run with code or settings that have since
changed.

The install's fingerprint: every source file of the project's packages (path, size and mtime; an edit, a
``pip install`` or a ``git checkout`` changes them), the directories the dependencies are installed in (a
package added, removed or upgraded changes the directory's entries and with them its mtime), the interpreter,
and the environment variables that decide how Python starts or how its streams encode (``PYTHON*``, the
locale's): those a client has that differ make it run cold and start a controller of its own.
"""

from __future__ import annotations

import hashlib
import os
import site
import sys
from collections.abc import Mapping

from runner.warm.place import PACKAGE_DIR

# The project's packages, beside each other (an editable install points at the checkout, a wheel at
# site-packages): the controller's code and the module library its actions read.
PACKAGES = ("runner", "modules", "filter_plugins")
_LOCALE_VARIABLES = frozenset(["LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE"])


def interpreter_environment(env: Mapping[str, str]) -> dict[str, str]:
    """The variables of ``env`` that the interpreter reads when it starts: a child forked from a controller
    started with other values would not be what the client's own interpreter is."""
    return {name: value for name, value in env.items() if name.startswith("PYTHON") or name in _LOCALE_VARIABLES}


def install_fingerprint() -> str:
    digest = hashlib.sha256(sys.executable.encode())
    root = os.path.dirname(PACKAGE_DIR)
    for package in PACKAGES:
        for directory, subdirectories, files in os.walk(os.path.join(root, package)):
            subdirectories[:] = sorted(name for name in subdirectories if name != "__pycache__")
            for name in sorted(files):
                if name.endswith((".py", ".json", ".yml")):
                    _add(digest, os.path.join(directory, name))
    for directory in sorted({*site.getsitepackages(), *sys.path[1:]}):  # [0]: the script's, the client's own
        if directory and os.path.isdir(directory):
            _add(digest, directory)
    return digest.hexdigest()


def _add(digest: hashlib._Hash, path: str) -> None:
    try:
        info = os.stat(path)
    except OSError:
        digest.update(f"{path}\0missing\n".encode())
        return
    digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
