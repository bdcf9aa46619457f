"""What a lookup gets besides its terms: the variables, the templar, and where relative files are found."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from runner.templating.errors import TemplateError
from runner.templating.state import Renderer

_MISSING = object()
_Lookup = TypeVar("_Lookup", bound=Callable[..., list[Any]])
_TAKING_UNDEFINED_TERMS: set[Callable[..., list[Any]]] = set()


def taking_undefined_terms(function: _Lookup) -> _Lookup:
    """Mark a lookup whose ``with_<name>`` loop leaves out its undefined terms rather than failing, as
    ansible-core 2.19's lookups with ``accept_lazy_markers`` do (``first_found``)."""
    _TAKING_UNDEFINED_TERMS.add(function)
    return function


def takes_undefined_terms(function: Callable[..., list[Any]]) -> bool:
    return function in _TAKING_UNDEFINED_TERMS


@dataclass(frozen=True)
class LookupContext:
    templar: Renderer
    variables: Mapping[str, Any]
    search_paths: tuple[Path, ...]
    subdir: str = "files"  # where relative names are looked for first: files/, templates/ or vars/

    def find_file(self, name: str, subdir: str | None = None) -> Path | None:
        """``name`` as given when absolute; else ``<path>/<subdir>/name`` then ``<path>/name`` for each search path
        (the caller orders them: role folder first, then the playbook's)."""
        expanded = os.path.expanduser(name)
        if os.path.isabs(expanded):
            return Path(expanded) if os.path.exists(expanded) else None
        folder = subdir or self.subdir
        for base in self.search_paths:
            for candidate in (base / folder / expanded, base / expanded):
                if candidate.exists():
                    return candidate
        return None

    def require_file(self, name: str, lookup: str, subdir: str | None = None) -> Path:
        path = self.find_file(name, subdir)
        if path is None:
            searched = ", ".join(str(base) for base in self.search_paths) or "no search paths"
            raise TemplateError(f"lookup '{lookup}': could not find '{name}' (searched {searched})")
        return path

    def variable(self, name: str, default: Any = _MISSING) -> Any:
        """A variable's value, rendered; ``default`` when undefined, else an error."""
        if name in self.variables:
            return self.templar.resolve_variable(self.variables, name)
        if default is not _MISSING:
            return default
        # Ansible's words: playbooks match on them
        raise TemplateError(f"lookup 'vars': No variable named '{name}' was found", undefined_name=name)


def listify(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def flatten_once(terms: list[Any]) -> list[Any]:
    flat: list[Any] = []
    for term in terms:
        flat.extend(term) if isinstance(term, (list, tuple)) else flat.append(term)
    return flat
