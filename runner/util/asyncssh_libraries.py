"""The native libraries asyncssh loads, found without running programs.

When it is imported, asyncssh looks for liboqs (post-quantum key exchange, ``asyncssh.crypto.pq``) and for
nettle (UMAC, ``asyncssh.crypto.umac``) with ``ctypes.util.find_library``, which on Linux runs ``ldconfig -p``
for each name, then ``gcc`` and ``ld`` when that finds nothing: liboqs, seldom installed, costs 6 processes and
~25 ms (~90 ms on a loaded machine) in every command that connects over SSH. asyncssh has no setting to skip
it. So, as asyncssh is first imported, its names are answered from the file system instead: the directories the
dynamic linker searches (``LD_LIBRARY_PATH``, ``/etc/ld.so.conf`` and the files it includes, the system's
library directories), the full path of the first ``lib<name>.so`` or ``lib<name>.so.<version>`` found, else None.
Other names go to ctypes as before.

The import hook that calls ``quiet_find_library`` as asyncssh is first imported is ``asyncssh_hook.py``, installed
by ``runner/__init__.py``: this module is loaded only then.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path

# What asyncssh 2.x asks for: liboqs (crypto/pq.py), nettle (crypto/umac.py).
_NAMES = ("oqs", "liboqs", "nettle", "libnettle", "libnettle-6")
_LD_SO_CONF = Path("/etc/ld.so.conf")
_replaced = False


def quiet_find_library() -> None:
    """Make ``ctypes.util.find_library`` answer asyncssh's names from the file system (once)."""
    global _replaced
    if _replaced:
        return
    import ctypes.util

    original: Callable[[str], str | None] = ctypes.util.find_library

    def find_library(name: str) -> str | None:
        return find_in_library_dirs(name) if name in _NAMES else original(name)

    ctypes.util.find_library = find_library
    _replaced = True


def find_in_library_dirs(name: str) -> str | None:
    """The full path of ``lib<name>.so`` (or a versioned one) in the dynamic linker's directories, or None."""
    prefix = f"lib{name}.so"
    for directory in library_dirs():
        matches = [entry for entry in _shared_libraries(directory)
                   if entry == prefix or entry.startswith(prefix + ".")]
        if matches:
            return os.path.join(directory, min(matches))  # the unversioned name first, as the linker's -l does
    return None


@functools.cache
def _shared_libraries(directory: str) -> tuple[str, ...]:
    # Listed once per command: asyncssh asks for five names, and a system library directory holds thousands.
    try:
        return tuple(entry for entry in os.listdir(directory) if ".so" in entry)
    except OSError:
        return ()


def library_dirs() -> list[str]:
    """The dynamic linker's directories, in its order: ``LD_LIBRARY_PATH``, ``ld.so.conf``'s, the defaults."""
    multiarch = getattr(sys.implementation, "_multiarch", "")  # sysconfig's MULTIARCH, without importing it
    defaults = [f"/lib/{multiarch}", f"/usr/lib/{multiarch}"] if multiarch else []
    defaults += ["/lib64", "/usr/lib64", "/lib", "/usr/lib"]
    found = [entry for entry in os.environ.get("LD_LIBRARY_PATH", "").split(":") if entry]
    return list(dict.fromkeys([*found, *_conf_dirs(_LD_SO_CONF, set()), *defaults]))


def _conf_dirs(path: Path, seen: set[Path]) -> list[str]:
    import glob

    if path in seen:
        return []
    seen.add(path)
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return []
    dirs: list[str] = []
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line.startswith("include "):
            pattern = line.split(None, 1)[1]
            pattern = pattern if os.path.isabs(pattern) else str(path.parent / pattern)
            for included in sorted(glob.glob(pattern)):
                dirs += _conf_dirs(Path(included), seen)
        elif line.startswith("/"):
            dirs.append(line)
    return dirs
