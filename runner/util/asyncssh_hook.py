"""The import hook that answers asyncssh's search for native libraries from the file system
(``asyncssh_libraries.py``, which says why): installed by ``runner/__init__.py`` for every command, so it imports
nothing itself. Every start of a command pays for what ``import runner`` loads, the warm controller's thin client
(``runner.warm.client``) included, whose whole point is to load almost nothing."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing's, without importing typing at every start: mypy and ruff read this name alike
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

_HOOKED_MODULE = "asyncssh"


class _BeforeAsyncssh:
    """A meta path finder that finds nothing: it only replaces the lookup as asyncssh is first looked for, then
    takes itself off the path."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> None:
        if name == _HOOKED_MODULE:
            from runner.util.asyncssh_libraries import quiet_find_library

            quiet_find_library()
            if self in sys.meta_path:
                sys.meta_path.remove(self)


def install() -> None:
    if not any(isinstance(finder, _BeforeAsyncssh) for finder in sys.meta_path):
        sys.meta_path.insert(0, _BeforeAsyncssh())
