"""provisioning-doc's pages for the actions of the language itself (include_tasks, import_role, ...): the compiler
and the executor carry them out, so there is no module file to read; each file here holds the same
DOCUMENTATION, EXAMPLES and RETURN a module declares."""

from __future__ import annotations

import importlib
from types import ModuleType

LANGUAGE_ACTIONS = ("import_playbook", "import_role", "import_tasks", "include_role", "include_tasks")


def language_page(name: str) -> ModuleType | None:
    """The page module of the language action ``name``; None for any other name."""
    if name not in LANGUAGE_ACTIONS:
        return None
    return importlib.import_module(f"{__name__}.{name}")
