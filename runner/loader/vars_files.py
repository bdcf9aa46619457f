"""A play's ``vars_files`` entries: where a named file is and what it holds, for the compiler (names it can
render) and the executor (names only a host's variables render)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from runner.errors import ParseError
from runner.loader.yaml import load_yaml_file


def find_vars_file(playbook_dir: Path, name: str) -> Path | None:
    """Where a play's ``vars_files`` entry is, looked for as Ansible does: an absolute (or ``~``) path as it is,
    else ``vars/NAME`` then ``NAME`` beside the playbook."""
    given = Path(name).expanduser()
    if given.is_absolute():
        return given if given.is_file() else None
    candidates = [playbook_dir / name] if name.split("/")[0] == "vars" else [playbook_dir / "vars" / name,
                                                                          playbook_dir / name]
    return next((candidate for candidate in candidates if candidate.is_file()), None)


def first_vars_file(candidates: Iterable[Any], playbook_dir: Path, render: Callable[[str], str]) -> Path | None:
    """The first of an entry's candidate names that names a file, each name given to ``render`` (its templates
    rendered) only when the ones before it named none: a later name may use what this host does not have."""
    for candidate in candidates:
        found = find_vars_file(playbook_dir, render(str(candidate)))
        if found is not None:
            return found
    return None


def read_vars_file(path: Path, position: Any) -> dict[str, Any]:
    """The variables of a vars file: a mapping, or a list of mappings merged in order, as Ansible reads one.
    A file of anything else is a ``ParseError`` at ``position`` (the play's)."""
    data = load_yaml_file(path) or {}
    layers = data if isinstance(data, list) else [data]
    if not all(isinstance(layer, dict) for layer in layers):
        raise ParseError(f"{path} must be a mapping of variables, or a list of mappings", position)
    merged: dict[str, Any] = {}
    for layer in layers:
        merged.update(layer)
    return merged
