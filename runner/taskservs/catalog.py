"""Finding taskservs: a taskserv is a role, looked up where the compiler looks up roles, and its ``taskserv:``
section is read from the role's meta/main.yml (once per role)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from runner.errors import SourcePosition, UserError
from runner.loader.role import find_role, role_files
from runner.loader.yaml import load_yaml_file
from runner.models.role import RoleMeta
from runner.models.taskserv import TaskservMeta
from runner.models.validation import raise_collected, validate


@dataclass(frozen=True)
class Taskserv:
    """A taskserv's role and its section (an empty one when the role has none)."""

    name: str
    path: Path
    meta: TaskservMeta = field(default_factory=TaskservMeta)
    declared: bool = False  # whether the role has a taskserv section

    @property
    def version(self) -> str | None:
        return self.meta.version


class TaskservCatalog:
    """The taskservs a project can install: roles found on the role search path."""

    def __init__(self, roles_path: Sequence[str | Path], playbook_dir: str | Path):
        self.roles_path = [Path(entry) for entry in roles_path]
        self.playbook_dir = Path(playbook_dir)
        self._read: dict[str, Taskserv] = {}

    def get(self, name: str, position: SourcePosition | None = None) -> Taskserv:
        """The taskserv ``name``; a ``ParseError`` at ``position`` when no role has that name (with a did-you-mean)
        or when its meta/main.yml does not read."""
        if name not in self._read:
            path = find_role(name, self.roles_path, self.playbook_dir, position=position)
            self._read[name] = _read_taskserv(name, path)
        return self._read[name]

    def exists(self, name: str) -> bool:
        try:
            find_role(name, self.roles_path, self.playbook_dir)
        except UserError:
            return False
        return True

    def names(self) -> list[str]:
        """Every role on the search path, by name: any role can be installed as a taskserv."""
        found: dict[str, None] = {}
        for base in [self.playbook_dir / "roles", *self.roles_path]:
            if base.is_dir():
                found.update((child.name, None) for child in sorted(base.iterdir())
                             if (child / "tasks").is_dir() or (child / "meta").is_dir())
        return list(found)


def _read_taskserv(name: str, path: Path) -> Taskserv:
    errors: list[UserError] = []
    files = role_files(path, "meta", None, errors=errors)
    raise_collected(errors)
    if not files:
        return Taskserv(name, path)
    data = load_yaml_file(files[0])
    meta = validate(RoleMeta, {} if data is None else data, where=SourcePosition(str(files[0])))
    if meta.taskserv is None:
        return Taskserv(name, path)
    return Taskserv(name, path, meta.taskserv, declared=True)
