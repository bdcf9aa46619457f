"""The compiler: playbooks and roles (typed models) into one Plan.

It resolves ``import_playbook``, ``import_tasks`` and ``import_role`` statically, expands ``import_infra``
(``runner.compiler.infra``), keeps ``include_tasks``,
``include_role`` (compiled per host at run time through ``compile_include``), expands roles with their
dependencies (once per play unless ``allow_duplicates``; a cycle is an error naming it), applies tags, checks
that every module exists and its argument names fit its spec, puts a role's ``argument_specs`` check first in
its tasks, and compiles every
template string once. Every problem in every file is collected and reported together; nothing runs unless the
whole plan compiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.ansible_api.collections import collection_of_path, find_collection_playbook
from runner.compiler.context import Inherited, search_list
from runner.compiler.play_argspec import validation_task
from runner.compiler.tags import TagFilter, reserved_tags_warning
from runner.compiler.tasks import TaskCompiler
from runner.errors import ParseError, SourcePosition, UserError
from runner.loader.playbook import load_playbook
from runner.loader.vars_files import first_vars_file, read_vars_file
from runner.models import InfraImport, Play, PlaybookImport
from runner.models.play import HOST_ORDERS, STRATEGIES
from runner.models.types import one_of
from runner.models.validation import raise_collected
from runner.plan import Plan, PlanFragment, PlanPlay, PlanTask, ScopeKind, VarScope
from runner.templating import Templar, add_project_plugins, configure_plugins, is_template
from runner.templating.errors import TemplateError

__all__ = ["CompileOptions", "Compiler"]


@dataclass
class CompileOptions:
    tags: list[str] = field(default_factory=list)
    skip_tags: list[str] = field(default_factory=list)
    roles_path: list[Path] = field(default_factory=list)
    library: list[Path] = field(default_factory=list)
    collections_path: list[Path] = field(default_factory=list)
    filter_plugins: list[Path] = field(default_factory=list)
    module_rejectlist: tuple[str, ...] = ()  # plugin_filters_cfg: modules that cannot be found (sorted)
    extra_vars: dict[str, Any] = field(default_factory=dict)
    # Play keywords' defaults from the configuration: 'gathering' implicit (True) or explicit (False),
    # 'strategy' and 'any_errors_fatal'.
    gather_facts: bool = True
    gather_smart: bool = False  # 'gathering' smart: an implied gathering skips hosts whose facts are known
    strategy: str = "linear"
    any_errors_fatal: bool = False
    precompile: bool = True  # compile templates to code now (a run); False only checks them (--syntax-check)
    validate_action_group_metadata: bool = True  # warn of an action group's metadata that is not as expected


class Compiler:
    def __init__(self, options: CompileOptions | None = None):
        self.options = options or CompileOptions()
        # The run's plugins start here, before any templar exists; playbooks and roles add their folders.
        configure_plugins(filter_dirs=self.options.filter_plugins, collections_paths=self.options.collections_path)
        self.errors: list[UserError] = []
        self.plan = Plan(playbook="", playbook_dir="")
        self.imported_infras: list[Path] = []  # infras whose plays the plan holds (import_infra, --infra)
        # The collection the playbook being read belongs to, first in its plays' collection search lists (as
        # ansible-core's default collection, it stays set by an imported collection playbook for what follows).
        self.default_collection: str | None = None
        # Files read whose content went into the plan without a task position of their own (vars_files), for
        # the run records.
        self.vars_files: list[Path] = []
        self.tasks = TaskCompiler(self, TagFilter.of(self.options.tags, self.options.skip_tags))

    # -- tables -------------------------------------------------------------------------------------------
    def add_scope(self, kind: ScopeKind, name: str, variables: dict[str, Any], position: str | None = None) -> int:
        self.plan.scopes.append(VarScope(kind=kind, name=name, vars=dict(variables), position=position))
        return len(self.plan.scopes) - 1

    def new_node(self, **fields: Any) -> PlanTask:
        node = PlanTask(id=len(self.plan.tasks), **fields)
        self.plan.tasks.append(node)
        return node

    def error(self, error: UserError) -> None:
        self.errors.append(error)

    def _warn_of_reserved_tags(self, model: Any) -> None:
        message = reserved_tags_warning(getattr(model, "tags", None) or ())
        if message is None:
            return
        position = getattr(model, "position", None)
        if isinstance(position, SourcePosition) and position.line is not None:
            message += "\n" + position.origin()
        if message not in self.plan.warnings:  # a model read again (an import's name, then its content) warns once
            self.plan.warnings.append(message)

    # -- playbooks ----------------------------------------------------------------------------------------
    def compile_playbooks(self, paths: list[Path], infras: Sequence[Path] = ()) -> Plan:
        """The plan of ``paths``; the plays of ``infras`` first (``--infra``, as an ``import_infra``)."""
        first = Path(paths[0] if paths else infras[0]).resolve()
        self.plan.playbook = str(paths[0] if paths else infras[0])
        self.plan.playbook_dir = str(first.parent)
        for infra in infras:
            from runner.compiler.infra import import_infra  # infra models load only when an infra is used

            import_infra(self, Path(infra).resolve(), base=first)
        for path in paths:
            # A playbook of a collection (named by its path) makes that collection the default one, as the
            # playbook command does in ansible-core; any other playbook leaves none.
            self.default_collection = collection_of_path(Path(path), self.options.collections_path)
            self._playbook(Path(path).resolve(), [], ())
        raise_collected(self.errors)
        return self.plan

    def _playbook(self, path: Path, stack: list[Path], imports: tuple[PlaybookImport, ...]) -> None:
        """The plays of ``path``; ``imports`` are the import_playbook entries that led here, outermost first."""
        if path in stack:
            chain = " -> ".join(str(p) for p in [*stack, path])
            self.error(ParseError(f"import_playbook cycle: {chain}"))
            return
        try:
            self.tasks.index.add_project_dirs([path.parent])  # the playbook's library/ and module_utils/
            add_project_plugins(path.parent)  # and its filter_plugins/, test_plugins/, lookup_plugins/
            playbook = load_playbook(path, self.tasks.is_module,
                                     lambda plays: self.tasks.roles.add_play_role_dirs(plays, path.parent))
        except UserError as exc:
            self.error(exc)
            return
        for entry in playbook.entries:  # plays, import_playbook and import_infra entries, in order
            if isinstance(entry, InfraImport):
                from runner.compiler.infra import import_infra

                target = Path(str(entry.import_infra))
                import_infra(self, (path.parent / target).resolve(), base=path, position=entry.position,
                             play_vars=entry.vars, tags=entry.tags)
            elif isinstance(entry, PlaybookImport):
                name = self._imported_playbook_name(entry, imports)
                if name is None:
                    continue
                target = self._imported_playbook(name, path)
                if not target.is_file():
                    self.error(ParseError(f"the imported playbook {target} could not be found", entry.position))
                    continue
                self._playbook(target.resolve(), [*stack, path], (*imports, entry))
            else:
                self._play(entry, path, imports)

    def _imported_playbook(self, name: str, importer: Path) -> Path:
        """The file ``import_playbook: NAME`` names: a collection's playbook (``NS.COLL.NAME``) first, else a path
        relative to the importing playbook. A collection's playbook makes its collection the default one."""
        found = find_collection_playbook(name, self.options.collections_path)
        if found is not None:
            self.default_collection = found[1]
            return found[0]
        target = Path(name) if Path(name).is_absolute() else importer.parent / name
        collection = collection_of_path(target, self.options.collections_path)
        if collection is not None:
            self.default_collection = collection
        return target

    def _imported_playbook_name(self, entry: PlaybookImport, imports: tuple[PlaybookImport, ...]) -> str | None:
        """The file an ``import_playbook`` names, rendered now if it is a template: Ansible renders it when it
        reads the playbook, so only what is known then can be used: ``playbook_dir``, the vars of this import
        and of the imports that led here, and the extra vars."""
        name = str(entry.import_playbook)
        if not is_template(name):
            return name
        known: dict[str, Any] = {"playbook_dir": self.plan.playbook_dir}
        known.update((key, value) for outer in (*imports, entry) for key, value in outer.vars.items())
        known.update(self.options.extra_vars)
        try:
            return str(Templar(known).template(name))
        except UserError as exc:
            self.error(ParseError(f"import_playbook is static: its file name must be known when the playbook is "
                                  f"read (extra vars, the import's vars), not only at run time ({exc.message})",
                                  entry.position))
            return None

    def compile_play(self, play: Play, path: Path) -> None:
        """One play as if written in the playbook ``path`` (the plays of an infra, runner.compiler.infra)."""
        self._play(play, path)

    def _play(self, play: Play, path: Path, imports: tuple[PlaybookImport, ...] = ()) -> None:
        playbook_dir = str(path.parent)
        name = play.name or ",".join(play.hosts)
        position = str(play.position or path)
        play_scope = self.add_scope(ScopeKind.PLAY_VARS, f"play {name}", play.vars, position)
        scopes = [play_scope]
        # An import_playbook's vars override the imported plays' own, its tags and conditions reach every task.
        import_vars = {key: value for entry in imports for key, value in entry.vars.items()}
        if import_vars:
            scopes.append(self.add_scope(ScopeKind.PLAY_VARS, f"import_playbook vars of {name}", import_vars))
        files_scope, host_vars_files = self._vars_files(play, path, name)
        if files_scope is not None:
            scopes.append(files_scope)
        keyword_vars = {**play.vars, **import_vars,
                        **(self.plan.scopes[files_scope].vars if files_scope is not None else {}),
                        **self.options.extra_vars}
        strategy = self._play_keyword(play, "strategy", play.strategy, STRATEGIES, keyword_vars)
        order = self._play_keyword(play, "order", play.order, HOST_ORDERS, keyword_vars)
        search = (playbook_dir,)
        imported = Inherited(search_paths=search, default_collection=self.default_collection,
                             playbook_dir=playbook_dir, on_model=self._warn_of_reserved_tags,
                             collections=search_list((), self.default_collection),
                             when=tuple(c for entry in imports for c in entry.when),
                             tags=tuple(dict.fromkeys(t for entry in imports for t in entry.tags)))
        inherited = imported.under(play)
        plan_play = PlanPlay(
            name=name, hosts=play.hosts if len(play.hosts) != 1 else play.hosts[0], position=position,
            scopes=scopes, tags=list(dict.fromkeys([*imported.tags, *play.tags])), serial=list(play.serial or []),
            strategy=strategy or self.options.strategy,
            max_fail_percentage=play.max_fail_percentage,
            any_errors_fatal=bool(self.options.any_errors_fatal if play.any_errors_fatal is None
                                  else play.any_errors_fatal),
            force_handlers=None if play.force_handlers is None else bool(play.force_handlers),
            ignore_unreachable=bool(play.ignore_unreachable),
            order=order or "inventory", check_mode=play.check_mode, diff=play.diff,
            gather_facts=self.options.gather_facts if play.gather_facts is None else play.gather_facts,
            gather_smart=self.options.gather_smart and play.gather_facts is None,
            vars_files=host_vars_files,
            gather_subset=list(play.gather_subset or ["all"]), search_paths=list(search))
        self.tasks.start_play(playbook_dir, scopes)
        pre = self._facts(plan_play, inherited) + self._argspec_validation(play, path, keyword_vars, inherited) \
            + self.tasks.compile_list(play.pre_tasks, inherited)
        imported_before = len(self.tasks.role_handlers)
        roles = self.tasks.compile_roles(play.roles, inherited)
        listed = slice(imported_before, len(self.tasks.role_handlers))
        main = roles + self.tasks.compile_list(play.tasks, inherited)
        post = self.tasks.compile_list(play.post_tasks, inherited)
        plan_play.sections = [pre, main, post]
        plan_play.implicit_flush = self.tasks.tags.selects(["always", *plan_play.tags])
        # As ansible-core orders them (to run, and to look a name up last block first): the handlers of the roles
        # the play lists, the play's own, then those of the roles its tasks import.
        role_handlers = self.tasks.role_handlers
        plan_play.handlers = role_handlers[listed] + self.tasks.compile_handlers(play.handlers, inherited) \
            + role_handlers[:listed.start] + role_handlers[listed.stop:]
        # The defaults and vars of every role the play lists or imports are the play's, as Ansible's (non-private)
        # role variables: every task of the play sees them, those before the import included. A role's own
        # tasks also see them through its scopes, where its parameters rank above them.
        plan_play.scopes += [scope for scope in self.tasks.roles.play_scopes if scope not in plan_play.scopes]
        self.plan.plays.append(plan_play)

    def _play_keyword(self, play: Play, keyword: str, value: str | None, choices: tuple[str, ...],
                      variables: dict[str, Any]) -> str | None:
        """A play keyword that picks one of ``choices``, rendered now if it is a template: Ansible renders it once
        per play with the play's variables and the extra vars, before any host runs."""
        if value is None or not is_template(value):
            return value
        try:
            rendered = Templar(variables).template(value)
        except UserError as exc:
            self.error(ParseError(f"{keyword} {value!r}: {exc.message}", play.position))
            return None
        if rendered not in choices:
            self.error(ParseError(f"{keyword} {value!r} renders to {rendered!r}; expected {one_of(choices)}",
                                  play.position))
            return None
        return str(rendered)

    def _facts(self, play: PlanPlay, inherited: Inherited) -> list[int]:
        # As ansible-core's: a tagged play's gathering has the play's tags (--tags and --skip-tags choose it as
        # the play's tasks); an untagged play's runs always.
        tags = list(inherited.tags) or ["always"]
        if play.gather_facts is False or not self.tasks.tags.selects(tags):
            return []
        node = self.new_node(kind="facts", name="Gathering Facts", module="setup",
                             args={"gather_subset": play.gather_subset}, position=play.position,
                             tags=tags, search_paths=list(inherited.search_paths),
                             when=list(inherited.when),  # a false import_playbook condition skips gathering too
                             environment=[e for e in inherited.environment if e])  # the play's, as in Ansible
        for name, value in inherited.keywords:  # the play's, which ansible-core's fact gathering inherits
            if name in ("become", "become_user", "become_method", "remote_user", "connection", "no_log",
                        "ignore_errors", "ignore_unreachable"):
                setattr(node, name, value)
        return [node.id]

    def _argspec_validation(self, play: Play, path: Path, variables: dict[str, Any], inherited: Inherited) -> list[int]:
        """The task ``validate_argspec`` asks for, compiled as the play's first after fact gathering (its tags,
        module_defaults and conditions as any task of the play has them)."""
        if play.validate_argspec is None:
            return []
        try:
            task = validation_task(play, path, variables, tagged=bool(inherited.tags), is_module=self.tasks.is_module)
        except UserError as exc:
            self.error(exc)
            return []
        return [] if task is None else self.tasks.compile_list([task], inherited)

    def _vars_files(self, play: Play, path: Path, name: str) -> tuple[int | None, list[list[str]]]:
        """Load ``vars_files`` now: a file name may use extra vars and play vars; a list means first found. An
        entry that needs a variable only a host has (its inventory vars, its facts) is left for the run, which
        reads it per host (returned as the list of its candidate names)."""
        if not play.vars_files:
            return None, []
        templar = Templar({**play.vars, **self.options.extra_vars})
        merged: dict[str, Any] = {}
        per_host: list[list[str]] = []
        for entry in play.vars_files:
            candidates = entry if isinstance(entry, list) else [entry]
            try:
                found = first_vars_file(candidates, path.parent,
                                        lambda name: str(templar.template(name, search_paths=[path.parent])))
            except TemplateError as exc:
                if not exc.undefined:
                    self.error(ParseError(f"vars_files entry {entry!r}: {exc.message}", play.position))
                    continue
                per_host.append([str(candidate) for candidate in candidates])
                continue
            if found is None:
                self.error(ParseError(f"vars_files: none of {candidates} could be found", play.position))
                continue
            try:
                merged.update(read_vars_file(found, play.position))
            except UserError as exc:
                self.error(exc)
                continue
            self.vars_files.append(found)
        scope = self.add_scope(ScopeKind.PLAY_VARS_FILES, f"vars_files of {name}", merged, str(play.position))
        return scope, per_host

    # -- run time -----------------------------------------------------------------------------------------
    def include_path(self, node: PlanTask, target: str) -> str:
        """The file an ``include_tasks`` names, as found (an absolute path), for ``included:`` lines as
        ansible-core prints them; a role's name, or a file not found, as given."""
        return self.tasks.included_file(node, target)

    def compile_include(self, node: PlanTask, target: str,
                        files: Mapping[str, str | bool] | None = None) -> PlanFragment:
        """Compile what an ``include_tasks`` / ``include_role`` names, for the executor, at run time.

        On an error the plan's tables are cut back, so ids and indexes stay the same in every copy of the plan.
        """
        plan = self.plan
        sizes = len(plan.tasks), len(plan.scopes), len(plan.roles), len(self.tasks.role_handlers)
        self.errors = []
        self.tasks.compile_dynamic(node, target, files)
        if self.errors:
            del plan.tasks[sizes[0]:], plan.scopes[sizes[1]:], plan.roles[sizes[2]:]
            del self.tasks.role_handlers[sizes[3]:]
            raise_collected(self.errors)
        return PlanFragment(tasks=plan.tasks[sizes[0]:], scopes=plan.scopes[sizes[1]:], roles=plan.roles[sizes[2]:],
                            handlers=self.tasks.role_handlers[sizes[3]:])
