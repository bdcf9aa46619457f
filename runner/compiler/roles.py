"""Roles into plan nodes: dependencies first (depth first, once per play unless ``allow_duplicates`` or other
parameters), a cycle is an error naming it, ``argument_specs`` become the role's first task, which validates its
parameters when it runs (as ansible-core's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from runner.compiler.context import Inherited, search_list
from runner.errors import ParseError, SourcePosition, UserError
from runner.loader.role import RoleSource, load_role, locate_role
from runner.models import RoleReference, Task
from runner.models.base import POSITION_KEY
from runner.models.validation import validate
from runner.module_index import ModuleIndex
from runner.plan import PlanRole, PlanTask, ScopeKind
from runner.templating import add_project_plugins, is_template
from runner.templating.filters.core import to_bool

# The include_role node's key (its ``include``) holding where its ``name`` was written, ``file:line:col``.
NAME_POSITION = "name_position"


class RoleTasks(Protocol):
    """What expanding a role uses of the task compiler (``runner.compiler.tasks.TaskCompiler``), which expands
    roles with this module: the protocol keeps the dependency one way."""

    compiler: Any
    playbook_dir: str
    role_handlers: list[int]
    index: ModuleIndex  # a role's library/ and module_utils/ join it before its tasks load

    def is_module(self, name: str) -> bool: ...

    def compile_list(self, entries: list[Any], inherited: Inherited, *, handlers: bool = False) -> list[int]: ...

    def compile_handlers(self, entries: list[Any], inherited: Inherited) -> list[int]: ...

    def static_name(self, file: str, inherited: Inherited, task: Task, keyword: str = "import_tasks") -> str: ...


class RoleExpander:
    def __init__(self, tasks: RoleTasks):
        self.tasks = tasks
        self.cache: dict[tuple[Any, ...], RoleSource] = {}
        # (role dir, params) already expanded in this play, with the vars scopes it and its dependencies brought
        self.seen: dict[tuple[Path, str], list[int]] = {}
        # The vars scopes of the roles expanded so far, in order: what a role's dependencies add to its view.
        self.expanded_vars: list[int] = []
        self.play_scopes: list[int] = []  # defaults and vars of the play's roles, seen by its own tasks

    @property
    def compiler(self) -> Any:
        return self.tasks.compiler

    def start_play(self) -> None:
        self.seen = {}
        self.expanded_vars = []
        self.play_scopes = []

    def _load(self, path: Path, collection: str | None, tasks_from: str | None = None,
              **others: str | None) -> RoleSource:
        key = (path, collection, tasks_from, *sorted(others.items()))
        if key not in self.cache:
            self.tasks.index.add_project_dirs([path])  # the role's library/ and module_utils/, before its tasks
            self.cache[key] = load_role(path, self.tasks.is_module, tasks_from=tasks_from, **others)
            self.cache[key].collection = collection
        return self.cache[key]

    def add_play_role_dirs(self, plays: Any, playbook_dir: Path) -> None:
        """Add the ``library/``, ``module_utils/`` and ``action_plugins/`` of the roles the plays of a playbook
        file list (``plays`` as read, not yet validated), in the order listed: Ansible loads a play's roles
        before its tasks, so a role's module can be a task of the play itself, and the first role listed wins
        a name two of them have. A role that is not found is left to compiling the play, which reports it."""
        for play in plays if isinstance(plays, list) else []:
            references = play.get("roles") if isinstance(play, dict) else None
            listed = play.get("collections") if isinstance(play, dict) else None
            try:
                collections = search_list(listed, self.compiler.default_collection)
            except TypeError:  # not a list of names: compiling the play reports it
                collections = ()
            for reference in references if isinstance(references, list) else []:
                name = reference.get("role", reference.get("name")) if isinstance(reference, dict) else reference
                if not isinstance(name, str) or is_template(name):
                    continue
                try:
                    path, _ = locate_role(name, self.compiler.options.roles_path, playbook_dir,
                                          collections_paths=self.compiler.options.collections_path,
                                          collections=[c for c in collections if isinstance(c, str)])
                except UserError:
                    continue
                self.tasks.index.add_project_dirs([path])

    def expand_play_roles(self, references: list[RoleReference], inherited: Inherited) -> list[int]:
        ids: list[int] = []
        for reference in references:
            try:
                ids += self._expand(reference.role, reference, reference.params, inherited, [], reference.position,
                                    collections=inherited.collections)
            except UserError as exc:
                self.compiler.error(exc)
        return ids

    def import_role(self, task: Task, inherited: Inherited) -> list[int]:
        include = task.include
        name = str(getattr(include, "name", "") or "")
        if is_template(name):  # rendered now with what is known when compiling, as Ansible does
            name = self.tasks.static_name(name, inherited.under(task), task, "import_role")
        params = dict(task.vars or {})
        context = inherited.under(task)
        files = {key: self._static_name(value, context, task) for key, value in
                 (include.model_dump(include={"tasks_from", *_ROLE_FILES}) if include is not None else {}).items()}
        return self._expand(name, task, params, context, [], task.position, collections=context.collections,
                            tasks_from=files.get("tasks_from"), params_are_vars=True, other_files=_other_files(files),
                            validate=self._static_flag(task, context, "rolespec_validate"),
                            allow_duplicates=self._static_flag(task, context, "allow_duplicates"))

    def _static_name(self, value: Any, context: Inherited, task: Task) -> Any:
        """import_role's ``tasks_from`` (or another role file), a template rendered when compiling."""
        return self.tasks.static_name(value, context, task, "import_role") if is_template(value) else value

    def _static_flag(self, task: Task, context: Inherited, keyword: str) -> bool:
        """import_role's ``rolespec_validate`` or ``allow_duplicates`` (true unless given), a template rendered
        with what is known when compiling, as for its name."""
        value = getattr(task.include, keyword, None)
        if is_template(value):
            value = self.tasks.static_name(str(value), context, task, "import_role")
        return True if value is None else bool(to_bool(value))

    def include_role(self, node: PlanTask, name: str, context: Inherited,
                     files: Mapping[str, str | bool] | None = None) -> None:
        """``files``: the role's files to read instead of ``main`` (tasks_from ...) and its switches (public ...)
        as rendered for the host; a file it lacks was omitted (``{{ omit }}``) or not given."""
        written = {key: value for key, value in (node.include or {}).items()
                   if key not in ("tasks_from", *_ROLE_FILES)} if files is not None else dict(node.include or {})
        include = {**written, **(files or {})}
        params = dict(include.get("vars") or {})
        # a role that is not there is reported where its name was written, as ansible-core 2.21 does
        position = SourcePosition.parse(str(include.get(NAME_POSITION) or node.position))
        self._expand(name, None, params, context, [], position, collections=context.collections,
                     tasks_from=include.get("tasks_from"), other_files=_other_files(include),
                     dynamic=True, params_are_vars=True, validate=include.get("rolespec_validate") is not False,
                     allow_duplicates=True)

    def _expand(self, name: str, reference: Any, params: dict[str, Any], inherited: Inherited,
                stack: list[Path], position: SourcePosition | None, *, collections: tuple[str, ...] = (),
                tasks_from: str | None = None, other_files: dict[str, str] | None = None, dynamic: bool = False,
                params_are_vars: bool = False,
                validate: bool = True, allow_duplicates: bool | None = None) -> list[int]:
        # A reference's ``vars:`` are role parameters too when telling duplicates apart, as in Ansible; but the
        # argument_specs check is given only the parameters written as such (``roles: [{role: x, port: 1}]``):
        # ``vars:`` (and include_role's and import_role's) reach it as variables.
        provided = {} if params_are_vars else dict(params)
        params = {**dict(getattr(reference, "vars", None) or {}), **params}
        base = stack[-1].parent if stack else None
        path, collection = locate_role(name, self.compiler.options.roles_path, self.tasks.playbook_dir,
                                       role_basedir=base, collections_paths=self.compiler.options.collections_path,
                                       collections=collections, position=position)
        if path in stack:
            chain = " -> ".join(p.name for p in [*stack, path])
            raise ParseError(f"role dependency cycle: {chain}", position)
        other_files = other_files or {}
        role = self._load(path, collection, tasks_from, **other_files)
        role_collections = _role_collections(role, inherited.default_collection)
        # As ansible-core tells roles apart: a role imported or included is never the same as one of roles: or a
        # dependency; import_role's and include_role's allow_duplicates (true unless given) replaces the role's own.
        from_include = allow_duplicates is not None
        key = (path, repr(sorted(params.items(), key=lambda kv: str(kv[0]))) + str(tasks_from)
               + repr(sorted(other_files.items())) + str(from_include))
        allowed = role.meta.allow_duplicates if allow_duplicates is None else allow_duplicates
        if key in self.seen and not allowed and not dynamic:
            self.expanded_vars += self.seen[key]  # its vars still reach the role that depends on it
            return []
        first_expanded = len(self.expanded_vars)
        validation = self._validation_task(role, provided, position, tasks_from) if validate else None
        plan_role = self._plan_role(role, params)
        # As in Ansible, a dependency sees the vars and parameters of the roles that depend on it (below its
        # own), and a role sees the vars of its dependencies (below its own).
        inherited_scopes = tuple(s for s in (plan_role.vars_scope, plan_role.params_scope) if s is not None)
        ids: list[int] = []
        for dependency in role.meta.dependencies:
            dependency_context = inherited.under(dependency)
            dependency_context = replace(dependency_context, scopes=dependency_context.scopes + inherited_scopes)
            try:
                ids += self._expand(dependency.role, dependency, dependency.params,
                                    dependency_context, [*stack, path], dependency.position or position,
                                    collections=_dependency_collections(role, role_collections))
            except UserError as exc:
                self.compiler.error(exc)
        add_project_plugins(path)  # the role's filter, test and lookup plugins, for the whole run as in Ansible
        role_index = self._add_role(plan_role)
        dependency_vars = list(dict.fromkeys(self.expanded_vars[first_expanded:]))
        if plan_role.vars_scope is not None:
            self.expanded_vars.append(plan_role.vars_scope)
        self.seen[key] = self.expanded_vars[first_expanded:]
        self.play_scopes += [s for s in (plan_role.defaults_scope, plan_role.vars_scope) if s is not None]
        scopes = [*dependency_vars, *(s for s in (plan_role.defaults_scope, plan_role.vars_scope,
                                                  plan_role.params_scope) if s is not None)]
        context = inherited.under(reference) if reference is not None else inherited
        # A role's short module names go through its own collection search list, never the play's (as Ansible).
        context = replace(context, scopes=context.scopes + tuple(scopes), role=role_index,
                          search_paths=(str(path), str(path / "tasks"), self.tasks.playbook_dir),
                          collections=role_collections)
        ids += self.tasks.compile_list([validation, *role.tasks] if validation else role.tasks, context)
        # An import in the handlers file is looked for beside it first, as Ansible looks for it.
        handlers_context = replace(context, search_paths=(str(path / "handlers"), *context.search_paths))
        self.tasks.role_handlers += self.tasks.compile_handlers(role.handlers, handlers_context)
        return ids

    def _plan_role(self, role: RoleSource, params: dict[str, Any]) -> PlanRole:
        """The role's plan entry and its scopes; added to the plan by ``_add_role`` (after its dependencies)."""
        add = self.compiler.add_scope
        return PlanRole(
            name=role.name, path=str(role.path), collection=role.collection,
            defaults_scope=add(ScopeKind.ROLE_DEFAULTS, f"role {role.name} defaults", role.defaults),
            vars_scope=add(ScopeKind.ROLE_VARS, f"role {role.name} vars", role.vars),
            params_scope=add(ScopeKind.ROLE_PARAMS, f"role {role.name} params", params) if params else None)

    def _add_role(self, plan_role: PlanRole) -> int:
        self.compiler.plan.roles.append(plan_role)
        return len(self.compiler.plan.roles) - 1

    def _validation_task(self, role: RoleSource, params: dict[str, Any], position: SourcePosition | None,
                         tasks_from: str | None) -> Task | None:
        """The task ansible-core puts first in a role with ``argument_specs`` for its entry point (``main`` or
        ``tasks_from``): ``validate_argument_spec`` of the role's parameters and, for the options they leave out,
        the variables the task sees (play vars, role defaults...). It runs, so its failure can be rescued, and is
        tagged ``always``. None without a spec for the entry point."""
        entry_point = tasks_from or "main"
        entry = role.argument_specs.get(entry_point)
        if entry is None:
            return None
        # the options as written, as ansible-core passes them (its failure result shows them)
        spec = {name: option.model_dump(exclude_unset=True, exclude={"position"})
                for name, option in entry.options.items()}
        name = f"Validating arguments against arg spec '{entry_point}'"
        if entry.short_description:
            name += f" - {entry.short_description}"
        # A dependency's version, src and scm say which role to fetch (provisioning-galaxy's requirement), never
        # what to give it.
        provided = {key: value for key, value in params.items() if key not in REQUIREMENT_KEYS}
        data = {POSITION_KEY: position, "name": name, "tags": ["always"], "ansible.builtin.validate_argument_spec": {
            "argument_spec": spec, "provided_arguments": provided,
            "validate_args_context": {"type": "role", "name": role.name, "argument_spec_name": entry_point,
                                      "path": str(role.path)}}}
        return validate(Task, data, is_module=self.tasks.is_module, where=position)


REQUIREMENT_KEYS = frozenset({"version", "src", "scm"})


_ROLE_FILES = ("handlers_from", "vars_from", "defaults_from")


def _other_files(include: Mapping[str, Any]) -> dict[str, str]:
    """An include_role's or import_role's ``handlers_from``, ``vars_from`` and ``defaults_from``: the files of the
    role read instead of ``main``."""
    return {key: str(include[key]) for key in _ROLE_FILES if include.get(key)}


def _role_collections(role: RoleSource, default_collection: str | None) -> tuple[str, ...]:
    """The collection search list of a role's tasks, as ansible-core makes it (a role never inherits the play's):
    a collection's role has its own collection first, any other role the playbook's default collection; then its
    ``meta/main.yml`` ``collections``; then ``ansible.builtin`` for a collection's role and ``ansible.legacy``
    (the library and builtin modules) for any other, unless one of them is already listed."""
    first = role.collection or default_collection
    listed = list(dict.fromkeys([*([first] if first else []), *role.meta.collections]))
    if listed and "ansible.builtin" not in listed and "ansible.legacy" not in listed:
        listed.append("ansible.builtin" if role.collection else "ansible.legacy")
    return tuple(listed)


def _dependency_collections(role: RoleSource, role_collections: tuple[str, ...]) -> tuple[str, ...]:
    """Where a role's dependencies named by a short name are looked up (ansible-core's ``RoleMetadata``): the
    role's own search list, its own collection first, then ``ansible.legacy``."""
    listed = [c for c in role_collections if c != role.collection]
    if role.collection:
        listed.insert(0, role.collection)
    if "ansible.legacy" not in listed:
        listed.append("ansible.legacy")
    return tuple(listed)
