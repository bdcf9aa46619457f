"""Finding a role and reading its files, as Ansible lays a role out.

A role is a directory: ``tasks/``, ``handlers/``, ``defaults/``, ``vars/`` and ``meta/`` each hold ``main``
(``.yml``, ``.yaml``, ``.json`` or no extension), ``defaults/`` and ``vars/`` may hold a ``main/`` directory
whose files are merged in name order, ``meta/argument_specs.yml`` declares the options of each entry point,
and ``files/`` and ``templates/`` hold what ``copy`` and ``template`` send. Every problem in all of a role's
files is raised together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.ansible_api.collections import BUILTIN_COLLECTIONS, collection_dir, split_fqcr
from runner.errors import NotFoundError, ParseError, SourcePosition, UserError, did_you_mean
from runner.loader.playbook import IsModule, load_handler_file, load_task_file
from runner.loader.yaml import load_yaml_file
from runner.models.block import HandlerEntry, TaskEntry
from runner.models.role import ArgumentSpecs, EntryPoint, RoleMeta
from runner.models.types import describe
from runner.models.validation import raise_collected, validate
from runner.positions import position_of

EXTENSIONS = (".yml", ".yaml", ".json")
MAIN = "main"


@dataclass
class RoleSource:
    """A role's files, read: what the compiler expands where the role is used."""

    name: str
    path: Path
    collection: str | None = None  # NS.COLL of a collection's role, as it was found (``locate_role``)
    tasks: list[TaskEntry] = field(default_factory=list)
    handlers: list[HandlerEntry] = field(default_factory=list)
    defaults: dict[str, Any] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)
    meta: RoleMeta = field(default_factory=RoleMeta)
    argument_specs: dict[str, EntryPoint] = field(default_factory=dict)

    @property
    def files_dir(self) -> Path:
        return self.path / "files"

    @property
    def templates_dir(self) -> Path:
        return self.path / "templates"


def find_role(name: str, roles_paths: Sequence[str | Path], playbook_dir: str | Path, *,
              role_basedir: str | Path | None = None, position: SourcePosition | None = None,
              collections_paths: Sequence[Path] = (), collections: Sequence[str] = ()) -> Path:
    """The directory of role ``name`` (``locate_role``)."""
    return locate_role(name, roles_paths, playbook_dir, role_basedir=role_basedir, position=position,
                       collections_paths=collections_paths, collections=collections)[0]


def locate_role(name: str, roles_paths: Sequence[str | Path], playbook_dir: str | Path, *,
                role_basedir: str | Path | None = None, position: SourcePosition | None = None,
                collections_paths: Sequence[Path] = (), collections: Sequence[str] = ()) -> tuple[Path, str | None]:
    """The directory of role ``name`` and the collection it is in (None for a role of no collection), searched as
    ansible-core does.

    A collection's role first: ``NS.COLL.ROLE`` (or ``NS.COLL.SUBDIR.ROLE``) is ``roles/ROLE`` of that collection,
    a short name is looked up in each collection of ``collections`` (the search list of the play, task or role
    naming it) in turn, each collection in the first collections path that has it. Then, for any name:
    ``roles/`` beside the playbook, each ``roles_path`` entry, ``role_basedir`` (the directory holding the role
    that depends on this one), the playbook's directory; then ``name`` as a path.
    """
    found = _collection_role(name, collections, collections_paths)
    if found is not None:
        return found
    search = [Path(playbook_dir) / "roles", *(Path(entry) for entry in roles_paths)]
    if role_basedir is not None:
        search.append(Path(role_basedir))
    search.append(Path(playbook_dir))
    for base in search:
        candidate = base.expanduser() / name
        if candidate.is_dir():
            return candidate.resolve(), None
    as_path = Path(name).expanduser()
    if as_path.is_dir():
        return as_path.resolve(), None
    known = {child.name for base in search if base.expanduser().is_dir()
             for child in base.expanduser().iterdir() if (child / "tasks").is_dir() or (child / "meta").is_dir()}
    searched = [c for c in collections if c not in BUILTIN_COLLECTIONS] if split_fqcr(name) is None else []
    raise NotFoundError(f"The role '{name}' was not found in: "
                        f"{':'.join([*searched, *(str(base) for base in search)])}", position,
                        hint=did_you_mean(name, known))


def _collection_role(name: str, collections: Sequence[str],
                     collections_paths: Sequence[Path]) -> tuple[Path, str] | None:
    split = split_fqcr(name)
    if split is not None:
        searched, subdirs, resource = [split[0]], split[1], split[2]
    elif "." in name or "/" in name:
        return None
    else:
        searched, subdirs, resource = [c for c in collections if c not in BUILTIN_COLLECTIONS], (), name
    for collection in searched:
        base = collection_dir(collection, collections_paths)
        role = base.joinpath("roles", *subdirs, resource) if base is not None else None
        if role is not None and role.is_dir():
            return role.resolve(), collection
    return None


def load_role(role_dir: str | Path, is_module: IsModule, *, tasks_from: str | None = None,
              handlers_from: str | None = None, vars_from: str | None = None,
              defaults_from: str | None = None) -> RoleSource:
    """Read a role's files; ``*_from`` name another file than ``main`` (``include_role: tasks_from=install``)."""
    path = Path(role_dir)
    if not path.is_dir():
        raise ParseError(f"the role directory {path} does not exist")
    errors: list[UserError] = []
    role = RoleSource(name=path.name, path=path)
    tasks = role_files(path, "tasks", tasks_from, errors=errors)
    role.tasks = load_task_file(tasks[0], is_module, errors) if tasks else []
    handlers = role_files(path, "handlers", handlers_from, errors=errors)
    role.handlers = load_handler_file(handlers[0], is_module, errors) if handlers else []
    role.defaults = _load_variables(role_files(path, "defaults", defaults_from, allow_dir=True, errors=errors), errors)
    role.vars = _load_variables(role_files(path, "vars", vars_from, allow_dir=True, errors=errors), errors)
    meta = role_files(path, "meta", None, errors=errors)
    role.meta = (_load(RoleMeta, meta[0], errors) if meta else None) or role.meta
    role.argument_specs = _load_argument_specs(path, errors) or role.meta.argument_specs
    raise_collected(errors)
    return role


def role_files(role_dir: Path, section: str, name: str | None, *, allow_dir: bool = False,
               errors: list[UserError]) -> list[Path]:
    """The file(s) holding ``section/name``; a missing ``main`` is no file, a missing named file an error.

    ``main`` is looked up with each extension first, a named file as written first (``tasks_from: setup.yml``).
    With ``allow_dir``, ``name`` may be a directory: its files, in name order, recursively.
    """
    directory = role_dir / section
    stem = name or MAIN
    suffixes = (*EXTENSIONS, "") if name is None else ("", *EXTENSIONS)
    for suffix in suffixes:
        candidate = directory / f"{stem}{suffix}"
        if candidate.is_dir():
            if allow_dir:
                return _files_under(candidate)
            continue
        if candidate.is_file():
            if not candidate.resolve().is_relative_to(directory.resolve()):
                errors.append(ParseError(f"'{stem}' is outside the role's {section}/ directory",
                                         SourcePosition(str(candidate))))
                return []
            return [candidate]
    if name is not None:
        # missing, as a role is: an include_role that names it fails its task (ansible-core 2.21)
        errors.append(NotFoundError(f"could not find {section}/{stem} in role '{role_dir.name}' "
                                 f"(looked for {stem} with no extension and with {', '.join(EXTENSIONS)})"))
    return []


def _files_under(directory: Path) -> list[Path]:
    found: list[Path] = []
    for child in sorted(directory.iterdir()):
        if child.name.startswith(".") or child.name.endswith("~"):
            continue
        if child.is_dir() and not child.suffix:
            found.extend(_files_under(child))
        elif child.is_file() and (not child.suffix or child.suffix in EXTENSIONS):
            found.append(child)
    return found


def _read(path: Path, errors: list[UserError]) -> Any:
    try:
        return load_yaml_file(path)
    except UserError as exc:
        errors.append(exc)
        return None


def _load(model: Any, path: Path, errors: list[UserError]) -> Any:
    data = _read(path, errors)
    return validate(model, {} if data is None else data, errors=errors, where=SourcePosition(str(path)))


def _load_variables(paths: list[Path], errors: list[UserError]) -> dict[str, Any]:
    """defaults/ or vars/: mappings, merged in order (a later file's variable replaces an earlier one's)."""
    merged: dict[str, Any] = {}
    for path in paths:
        data = _read(path, errors)
        if data is None:
            continue
        if not isinstance(data, Mapping):
            errors.append(ParseError(f"expected a mapping of variables, got {describe(data)}",
                                     position_of(data) or SourcePosition(str(path))))
            continue
        merged.update(data)
    return merged


def _load_argument_specs(role_dir: Path, errors: list[UserError]) -> dict[str, EntryPoint] | None:
    for suffix in EXTENSIONS:
        path = role_dir / "meta" / f"argument_specs{suffix}"
        if path.is_file():
            specs = _load(ArgumentSpecs, path, errors)
            return specs.argument_specs if specs is not None else None
    return None
