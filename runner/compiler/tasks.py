"""Tasks, blocks, imports, includes, roles and handlers into plan nodes."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modules._utils import ArgumentError, validate_arguments
from runner.ansible_api.action_check import action_plugin_problem
from runner.ansible_api.action_groups import GROUP_PREFIX, group_actions
from runner.ansible_api.collections import BUILTIN_COLLECTIONS, split_fqcn
from runner.ansible_api.routing import RoutingError
from runner.compiler.context import Inherited
from runner.compiler.roles import NAME_POSITION, RoleExpander
from runner.compiler.tags import TagFilter
from runner.errors import CensoredParseError, NotFoundError, ParseError, SourcePosition, UserError
from runner.loader.playbook import load_task_file
from runner.models import Block, Task
from runner.models.action import (
    IMPORT_ROLE,
    IMPORT_TASKS,
    INCLUDE_ROLE,
    INCLUDE_TASKS,
    META,
    SPECIAL_ACTIONS,
    canonical_action,
)
from runner.module_index import BUILTIN_PREFIXES, ModuleIndex
from runner.plan import ARGUMENT_TEMPLATES, PlanTask, ScopeKind
from runner.plan.module_args import module_arguments
from runner.positions import position_of
from runner.templating import Templar, TemplateError, is_template, literal_values

if TYPE_CHECKING:
    from runner.compiler import Compiler


class TaskCompiler:
    def __init__(self, compiler: Compiler, tags: TagFilter):
        self.compiler = compiler
        self.tags = tags
        self.index = ModuleIndex(compiler.options.library, collections_paths=compiler.options.collections_path,
                                 rejected=compiler.options.module_rejectlist)
        self.templar = Templar()
        self.roles = RoleExpander(self)
        self.role_handlers: list[int] = []
        self.include_contexts: dict[int, Inherited] = {}
        self.handler_includes: set[int] = set()  # the include_tasks that are handlers: their files hold no block
        self.playbook_dir = "."
        self.play_scopes: list[int] = []  # the play's own variables (vars, import vars, vars_files)
        self._groups: dict[str, frozenset[str]] = {}  # action groups of module_defaults, by the name used

    @property
    def plan(self) -> Any:
        return self.compiler.plan

    def is_module(self, name: str) -> bool:
        # A short name may be a module of a collection a collections: keyword lists, which only the compile
        # step knows: here any installed collection's module counts, the compile step resolves it exactly.
        try:
            index = self.index
            return index.find(name) is not None or index.in_some_collection(name) or index.is_routed(name)
        except RoutingError:  # a removed module is still the task's module: compiling the task reports it
            return True

    def start_play(self, playbook_dir: str, play_scopes: list[int] | None = None) -> None:
        self.playbook_dir = playbook_dir
        self.play_scopes = list(play_scopes or [])
        self.role_handlers = []
        self.roles.start_play()

    # -- lists ----------------------------------------------------------------------------------------------
    def compile_list(self, entries: list[Any], inherited: Inherited, *, handlers: bool = False,
                     top: bool = False) -> list[int]:
        """``top``: the entries are a handlers section itself, whose blocks group handlers; ansible-core refuses a
        block anywhere else among handlers (in a block, in an imported file)."""
        ids: list[int] = []
        for entry in entries:
            try:
                if isinstance(entry, Block):
                    if handlers and not top:
                        raise UserError("Using a block as a handler is not supported.", entry.position)
                    ids += self._block(entry, inherited, handlers)
                else:
                    ids += self._task(entry, inherited, handlers)
            except UserError as exc:
                self.compiler.error(exc)
        return ids

    def compile_handlers(self, entries: list[Any], inherited: Inherited) -> list[int]:
        # A handler runs only when notified: what Ansible would find in it only when it runs is left for then.
        return self.compile_list(entries, replace(inherited, may_not_run=True), handlers=True, top=True)

    def compile_roles(self, references: list[Any], inherited: Inherited) -> list[int]:
        return self.roles.expand_play_roles(references, inherited)

    # -- blocks and tasks -----------------------------------------------------------------------------------
    def _block(self, block: Block, inherited: Inherited, handlers: bool) -> list[int]:
        scope = None
        if block.vars:
            scope = self.compiler.add_scope(ScopeKind.BLOCK_VARS, f"block at {block.position}", block.vars,
                                            str(block.position))
        context = self._static_tags(inherited.under(block, scope=scope))
        node = self.compiler.new_node(kind="block", name=block.name, position=str(block.position or ""),
                                      tags=list(context.tags))
        guarded = replace(context, may_not_run=True)
        node.block = self.compile_list(block.block, guarded if block.rescue else context, handlers=handlers)
        node.rescue = self.compile_list(block.rescue, guarded, handlers=handlers)
        node.always = self.compile_list(block.always, context, handlers=handlers)
        if not (node.block or node.rescue or node.always):
            return []
        return [node.id]

    def _task(self, task: Task, inherited: Inherited, handlers: bool) -> list[int]:
        module = task.module
        if handlers and module in (INCLUDE_ROLE, IMPORT_ROLE):  # ansible-core refuses them when it reads the play
            raise UserError(f"Using '{task.module_written or module}' as a handler is not supported.", task.position)
        if module == IMPORT_TASKS:
            return self._import_tasks(task, inherited, handlers)
        if module == IMPORT_ROLE:
            return self.roles.import_role(task, inherited)
        scope = None
        if task.vars:
            scope = self.compiler.add_scope(ScopeKind.TASK_VARS, f"task at {task.position}", task.vars,
                                            str(task.position))
        context = self._static_tags(inherited.under(task, scope=scope))
        if not handlers and not self.tags.selects(context.tags):
            return []
        if is_template(module):
            task = self._with_static_module(task, context)
        node = self._node(task, context)
        if module in (INCLUDE_TASKS, INCLUDE_ROLE):
            # What an include adds inherits from the include's parents, not from the include itself: its own
            # keywords (tags, when, become ...) apply to the include only, unless given again under ``apply``;
            # but an include_role's role is looked up through its own collection search list.
            self.include_contexts[node.id] = replace(inherited, collections=context.collections)
            if handlers:
                self.handler_includes.add(node.id)
        if handlers:
            node.listen = list(getattr(task, "listen", []) or [])
        return [node.id]

    def _node(self, task: Task, context: Inherited) -> PlanTask:
        module = task.module
        # A task's own notify, else the one of the block, import or role it is in, as Ansible inherits it.
        notify = list(task.notify or dict.fromkeys(context.notify))
        fields: dict[str, Any] = {
            "name": task.name, "position": str(task.position or ""), "role": context.role,
            "scopes": list(context.scopes), "when": list(context.when), "tags": list(context.tags),
            "environment": [e for e in context.environment if e], "search_paths": list(context.search_paths),
            "collections": list(context.collections),
            "register_var": task.register_var, "register_projections": task.register_projections, "notify": notify,
            "changed_when": task.changed_when, "failed_when": task.failed_when, "until": task.until,
            "retries": task.retries, "delay": task.delay, "async_seconds": task.async_seconds, "poll": task.poll,
        }
        fields.update(context.keywords)  # the task's own over its block's, role's and play's
        if context.fallbacks:
            fields["keyword_fallbacks"] = {name: list(values) for name, values in context.fallbacks}
        if task.loop is not None:
            fields["loop"] = task.loop
            fields["loop_with"] = task.loop_with
            if task.loop_control is not None:
                fields["loop_control"] = task.loop_control.model_dump(exclude_none=True, exclude={"position"})
        if module in (INCLUDE_TASKS, INCLUDE_ROLE):
            return self._include_node(task, fields)
        if module == META:
            args = task.module_args if isinstance(task.module_args, dict) else {"_raw_params": task.module_args}
            return self.compiler.new_node(kind="meta", module="meta", args=dict(args), **fields)
        # A task that may never run (a condition of its own or inherited, a handler that may never be notified, a
        # rescue) or whose failure is handled (ignore_errors, failed_when, a block with a rescue) has its argument
        # names and templates checked where it runs, as Ansible does: a branch for another OS family naming that
        # family's parameters, or a task that expects its own template to fail, must not stop the run.
        handled = context.may_not_run or _failure_handled(task, context)
        if is_template(module):  # named by the run's variables: its arguments are read where it runs
            node = self.compiler.new_node(kind="task", module=module, args={}, **fields,
                                          written_args={"module_args": task.module_args, "args": task.args})
            self._precompile(node, deferred=True, conditions_deferred=handled)
            return node
        deferred = handled or bool(context.when)
        inherited_conditions = len(context.when) > len(task.when or ())
        args, resolved = self._arguments(task, context.collections, check_names=not deferred)
        defaults, default_templates = self._module_defaults(task, resolved, context)
        args = {**defaults, **args}
        if default_templates:  # the lowest of the templates that yield arguments where the task runs
            args[ARGUMENT_TEMPLATES] = [*default_templates, *args.get(ARGUMENT_TEMPLATES, [])]
        written = task.module_written if task.module_written not in ("", resolved) else None
        chosen = self._chosen_defaults(task, resolved, context)
        if chosen:
            fields["chosen_defaults"] = chosen
        node = self.compiler.new_node(kind="task", module=resolved, module_written=written, args=args, **fields)
        self._precompile(node, deferred=deferred, conditions_deferred=handled or inherited_conditions)
        return node

    def _module_defaults(self, task: Task, resolved: str, context: Inherited) -> tuple[dict[str, Any], list[str]]:
        """The ``module_defaults`` in force for ``task``, whose module resolved to ``resolved``: those of the action
        groups (``group/NS.COLL.GROUP``) it belongs to, then its own action's over them, as ansible-core merges them;
        and, apart, the ones given as templates of a mapping (``file: "{{ file_defaults }}"``), lowest first, which
        only the run can read. An action that runs another module (``gather_facts``: ``setup``) has that module's
        defaults under its own, as ansible-core's action applies them to the module it calls."""
        module = task.module or ""
        own = self._action_defaults(task, task.module_written or module, module, resolved, context)
        runs = _RUNS_MODULE.get(self.index.canonical(resolved))
        if runs is None:
            return own
        under = self._action_defaults(task, f"ansible.builtin.{runs}", runs, runs, context)
        return {**under[0], **own[0]}, [*under[1], *own[1]]

    def _chosen_defaults(self, task: Task, resolved: str, context: Inherited) -> dict[str, dict[str, Any]]:
        """For a module whose work another does, chosen per host (``service``: systemd or sysvinit): each
        candidate's module_defaults in force (its groups' and its own, as ``_action_defaults``), templates of a
        mapping under ``ARGUMENT_TEMPLATES``; only the candidates that have some. The run merges the chosen one's
        under the task's arguments, as ansible-core's service and package actions do."""
        info = self.index.find(resolved)
        found: dict[str, dict[str, Any]] = {}
        for candidate in info.chosen_from if info is not None else ():
            target = self.index.find(candidate)
            name = self.index.resolved_name(candidate, target) if target is not None else candidate
            defaults, templates = self._action_defaults(task, f"ansible.builtin.{candidate}", candidate, name,
                                                        context)
            if templates:
                defaults = {**defaults, ARGUMENT_TEMPLATES: templates}
            if defaults:
                found[candidate] = defaults
        return found

    def _action_defaults(self, task: Task, written: str, module: str, resolved: str,
                         context: Inherited) -> tuple[dict[str, Any], list[str]]:
        """``_module_defaults`` for one action: written as ``written`` (``module`` without its collection), which
        resolved to ``resolved``."""
        action = self._action_name(written)
        names = {action, self._action_name(resolved)}
        group_defaults: dict[str, Any] = {}
        action_defaults: dict[str, Any] = {}
        # A level's defaults for an action replace an outer level's for it whole (``debug: {}`` removes them),
        # as ansible-core merges the levels' mappings key by key.
        levels: dict[str, tuple[str, Any]] = {}
        for key, defaults in context.module_defaults:
            same = key if key.startswith((GROUP_PREFIX, "ansible.builtin.")) else self.index.canonical(key)
            levels.pop(same, None)
            levels[same] = (key, defaults)
        group_templates: list[str] = []
        action_templates: list[str] = []
        collection_key = self._collection_defaults_name(written, context.collections)
        for key, defaults in levels.values():
            if key.startswith(GROUP_PREFIX):
                if not names & self._group(key.removeprefix(GROUP_PREFIX), task):
                    continue
                found, templates = group_defaults, group_templates
            elif key.startswith("ansible.builtin."):
                # as in ansible-core: not for a task that resolved to a library folder's module or action plugin,
                # while the defaults of a short or ansible.legacy name serve both
                if not (key == action or (self.index.canonical(key) == resolved and action == resolved)):
                    continue
                found, templates = action_defaults, action_templates
            elif collection_key is not None:
                # a collection's action: keys match by what each resolves to, as in ansible-core
                if split_fqcn(key) is None or self.index.defaults_name(key) != collection_key:
                    continue
                found, templates = action_defaults, action_templates
            elif self.index.canonical(key) in (module, resolved):
                found, templates = action_defaults, action_templates
            else:
                continue
            if isinstance(defaults, dict):
                found.update(defaults)
            elif is_template(defaults):
                templates.append(defaults)
        return {**group_defaults, **action_defaults}, [*group_templates, *action_templates]

    def _collection_defaults_name(self, written: str, collections: tuple[str, ...]) -> str | None:
        """For a task of a collection's action or module (``NS.COLL.X``, or a short name found through
        ``collections``): the name its ``module_defaults`` are matched by (``ModuleIndex.defaults_name``); None for
        any other task."""
        short = self.index.canonical(written)
        if written.startswith(BUILTIN_PREFIXES):
            return None
        names = [short] if "." in short else [f"{collection}.{short}" for collection in collections
                                               if collection not in BUILTIN_COLLECTIONS]
        for name in names:
            if split_fqcn(name) is not None and self.index.find(name) is not None:
                return self.index.defaults_name(name)
        return None

    def _action_name(self, name: str) -> str:
        """``name`` as action groups list it: fully qualified, ansible-core's own modules as ``ansible.builtin.X``,
        a library folder's module or action plugin (which a short or ``ansible.legacy.`` name finds first) as
        ``ansible.legacy.X``."""
        short = self.index.canonical(name)
        if "." in short:
            return short
        info = None if name.startswith("ansible.builtin.") else self.index.find(short)
        legacy = info is not None and self.index.is_project_module(info)
        return f"ansible.legacy.{short}" if legacy else f"ansible.builtin.{short}"

    def _group(self, group: str, task: Task) -> frozenset[str]:
        """The actions of an action group, by the names ``_action_name`` gives; an unknown group is a compile error
        at the task it would apply to."""
        actions = self._groups.get(group)
        if actions is None:
            try:
                listed = group_actions(group, self.index.collections_paths,
                                       _warn if self.compiler.options.validate_action_group_metadata else None)
            except UserError as exc:
                raise ParseError(exc.message, task.position, hint=exc.hint) from None
            actions = self._groups[group] = frozenset(self._action_name(action) for action in listed)
        return actions

    def _arguments(self, task: Task, collections: tuple[str, ...] = (), *,
                   check_names: bool = True) -> tuple[dict[str, Any], str]:
        """The task's arguments, and the name its module resolved to (a collection's through ``collections``).

        ``check_names``: refuse unknown or conflicting argument names now; without it the module's own check
        where the task runs reports them.
        """
        module = task.module
        try:
            # ``ansible.builtin.X`` as written is never looked up in the collection search list, as in ansible-core
            qualified = (task.module_written or "").startswith(("ansible.builtin.", "ansible.legacy."))
            info = self.index.find(task.module_written if qualified else module, collections)
            if info is None:
                raise self.index.unresolved(module)
        except UserError as exc:  # not found, removed (a routing's tombstone), or routed in a loop
            raise ParseError(exc.message, task.module_position or task.position, hint=exc.hint) from None
        if info.action:
            from runner.actions import action_for

            try:
                action_for(info.action, info.name)
            except UserError as exc:  # a library module whose marker names no registered action
                raise ParseError(exc.message, task.module_position or task.position) from None
        if info.action_plugin is not None:
            problem = action_plugin_problem(info.action_plugin, self.index.collections_paths)
            if problem is not None:
                raise ParseError(f"the action plugin {info.action_plugin} of '{module}' cannot run here: {problem}",
                                 task.module_position or task.position)
        if info.ansible_api and info.path != info.action_plugin:
            try:
                self.index.packed(info)  # needs ansible-core, and every module_utils it imports found
            except UserError as exc:
                raise ParseError(exc.message, task.module_position or task.position, hint=exc.hint) from None
        try:
            args = module_arguments(task.module_args, task.args, info.free_form)
        except UserError as exc:
            raise ParseError(exc.message, task.module_position or task.position) from None
        if check_names and not info.any_arguments:
            try:
                # a templated value may yet be omit: it cannot conflict with another argument before the run
                validate_arguments(info.argument_spec, literal_values(args), info.spec_rules, check_values=False)
            except ArgumentError as exc:
                raise ParseError(f"{module}: {exc}", task.module_position or task.position) from None
        return args, self.index.resolved_name(task.module_written if qualified else module, info)

    def _precompile(self, node: PlanTask, *, deferred: bool = False, conditions_deferred: bool = False) -> None:
        """Check every template in the task now, so a syntax error or unknown filter stops the run before any
        host is touched; for a run, also compile each one once, before the workers fork and share them.

        ``deferred``: the task may never run or its failure is handled, so a template that does not compile is
        the task's failure where it runs (as in Ansible), not an error now; ``conditions_deferred``: the same for
        its conditions, which are read whenever the task is reached (its own ``when`` does not defer them)."""
        prepare = self.templar.precompile if self.compiler.options.precompile else self.templar.check
        for where, value in _templated_values(node):
            try:
                for text in _strings(value):
                    if is_template(text):
                        prepare(text, condition=where in _CONDITIONS)
            except TemplateError as exc:
                if conditions_deferred if where == WHEN else deferred:
                    continue
                what = f"template error in task '{node.name or node.module}'"
                position = SourcePosition.parse(node.position)
                if exc.unknown_plugin:
                    # As Ansible: only this task fails, when it runs (the tasks before it run; a filter plugin
                    # may yet be installed by then). Said now too, where the mistake is cheapest to fix.
                    hint = f" ({exc.hint})" if exc.hint else ""
                    _warn(f"{position}: {what}, in its {where}: {exc.summary}{hint}; the task will fail when it runs")
                    continue
                if node.no_log not in (False, None):
                    # The template, and Jinja's message quoting it, may hold the secret no_log protects.
                    raise CensoredParseError(f"{what}, in its {where}: {exc.summary} (the template is not shown: "
                                             "the task has no_log)", position, hint=exc.hint) from None
                raise ParseError(f"{what}: {exc.message}", position, hint=exc.hint) from None

    # -- imports and includes -------------------------------------------------------------------------------
    def _import_tasks(self, task: Task, inherited: Inherited, handlers: bool = False) -> list[int]:
        include = task.include
        file = str(getattr(include, "file", "") or "")
        if is_template(file):
            file = self.static_name(file, inherited, task)
        path = self._find_tasks_file(file, inherited)
        if path is None:
            raise self._missing_tasks_file(file, inherited, task.module_position or task.position)
        scope = None
        if task.vars:
            scope = self.compiler.add_scope(ScopeKind.TASK_VARS, f"import at {task.position}", task.vars)
        context = inherited.under(task, scope=scope)
        context = replace(context, search_paths=(str(path.parent), *context.search_paths))
        entries = load_task_file(path, self.is_module)
        return self.compile_list(entries, context, handlers=handlers)  # a handlers file imports handlers

    def _known_when_compiling(self, inherited: Inherited) -> dict[str, Any]:
        """What a name may be rendered with when compiling, as Ansible renders static names: extra vars, the
        play's, role's, blocks' (and task's) vars, ``role_path``, ``role_name`` and ``playbook_dir``."""
        known: dict[str, Any] = {"playbook_dir": str(self.playbook_dir)}
        if inherited.role is not None:
            role = self.compiler.plan.roles[inherited.role]
            known.update(role_path=role.path, role_name=role.name)
        for scope in [*self.play_scopes, *inherited.scopes]:
            known.update(self.compiler.plan.scopes[scope].vars)
        known.update(self.compiler.options.extra_vars)
        return known

    def _static_tags(self, context: Inherited) -> Inherited:
        """Templated tags (``tags: "{{ the_tags }}"``, the task's or a parent's) rendered with what is known when
        compiling, as ansible-core renders them before choosing tasks: a list gives its items, a string its
        comma-separated names. One that needs the run's variables stays as written."""
        if not any(is_template(tag) for tag in context.tags):
            return context
        templar = Templar(self._known_when_compiling(context))
        tags: list[str] = []
        for tag in context.tags:
            value: Any = tag
            if is_template(tag):
                try:
                    value = templar.template(tag)
                except TemplateError:
                    pass
            names = [str(item) for item in value] if isinstance(value, list) else str(value).split(",")
            tags += [name.strip() for name in names if name.strip() and name.strip() not in tags]
        return replace(context, tags=tuple(tags))

    def _with_static_module(self, task: Task, context: Inherited) -> Task:
        """``task`` calling the module its templated name (``action: "{{ pkg_module }} name=x"``) renders to with
        what is known when compiling; the arguments are then read for that module, as for any other task. A name
        that needs the run's variables (facts, set_fact) stays a template, rendered per host where the task runs."""
        where = task.module_position or task.position
        try:
            name = str(Templar(self._known_when_compiling(context)).template(task.module)).strip()
        except TemplateError:
            return task
        short = canonical_action(name)
        if short in SPECIAL_ACTIONS:
            raise ParseError(f"'{short}' cannot be named by a template ('{task.module}'); write it as the task's "
                             "key", where)
        if self.index.find(short) is None:
            return task  # ansible-core fails such a task only where it runs (ignore_errors, when apply)
        return task.model_copy(update={"module": short})

    def static_name(self, file: str, inherited: Inherited, task: Task, keyword: str = "import_tasks") -> str:
        """An import's file (or role) name rendered with what is known when compiling (``_known_when_compiling``)
        and the import's own vars, as Ansible renders it."""
        known = self._known_when_compiling(inherited)
        known = {**known, **(task.vars or {}), **self.compiler.options.extra_vars}
        try:
            return str(Templar(known).template(file))
        except TemplateError as exc:
            dynamic = keyword.replace("import_", "include_")
            raise ParseError(f"{keyword} is static: its name must be known when the playbook is read "
                             f"(extra vars, play, role or block vars), not only at run time; use {dynamic} "
                             f"({exc.message})", task.module_position or task.position) from None

    def _missing_tasks_file(self, file: str, inherited: Inherited, position: SourcePosition | None
                            ) -> NotFoundError:
        """ansible-core's words for a tasks file that is not there (scripts match them), naming the path it tried
        last (beside the playbook); where ours looked is the hint. Inside an include at run time it fails the
        hosts that include it, as ansible-core's does."""
        tried = Path(file) if Path(file).is_absolute() else Path(self.playbook_dir) / file
        return NotFoundError(f"Could not find or access '{tried}' on the Ansible Controller: Unable to retrieve file "
                             f"contents.\nCould not find or access '{tried}' on the Ansible Controller.\nIf you are "
                             "using a module and expect the file to exist on the remote, see the remote_src option: "
                             f"[Errno 2] No such file or directory: '{tried}'", position,
                             hint=f"looked for '{file}' in {', '.join(dict.fromkeys(inherited.search_paths))}")

    def _find_tasks_file(self, file: str, inherited: Inherited) -> Path | None:
        candidate = Path(file)
        if candidate.is_absolute():
            return candidate if candidate.is_file() else None
        for base in (*inherited.search_paths, self.playbook_dir):
            for folder in (Path(base), Path(base) / "tasks"):
                if (folder / file).is_file():
                    return (folder / file).resolve()
        return None

    def _include_node(self, task: Task, fields: dict[str, Any]) -> PlanTask:
        include = task.include
        data: dict[str, Any] = {}
        if include is not None:
            data = include.model_dump(exclude_none=True, exclude={"position"})
        if task.vars:
            data["vars"] = dict(task.vars)
        name_at = position_of(task.module_args, "name", value=True) if task.module == INCLUDE_ROLE else None
        if name_at is not None and name_at.line is not None:
            data[NAME_POSITION] = str(name_at)
        if task.module_args and isinstance(task.module_args, dict):
            params = {k: v for k, v in task.module_args.items()
                      if k not in ("file", "name", "apply", "tasks_from", "vars_from", "defaults_from",
                                   "handlers_from", "public", "allow_duplicates", "rolespec_validate", "rescuable")}
            if params:
                data["vars"] = {**params, **data.get("vars", {})}
        written = task.module_written if task.module_written not in ("", task.module) else None
        node = self.compiler.new_node(kind=task.module, module=task.module, module_written=written, include=data,
                                      **fields)
        self._precompile(node)
        return node

    def included_file(self, node: PlanTask, target: str) -> str:
        """Where the file an include_tasks names is, as compile_dynamic finds it; else ``target`` as given."""
        if node.kind == INCLUDE_ROLE:
            return target
        path = self._find_tasks_file(target, self._include_context(node))
        return str(path) if path is not None else target

    def _include_context(self, node: PlanTask) -> Inherited:
        return self.include_contexts.get(node.id) or Inherited(search_paths=tuple(node.search_paths))

    def compile_dynamic(self, node: PlanTask, target: str, files: Mapping[str, str | bool] | None = None) -> None:
        """The nodes an include adds for one target (file or role), compiled in the context of its parents."""
        context = self._include_context(node)
        apply = (node.include or {}).get("apply") or {}
        if apply:
            context = context.under(_ApplyKeywords(apply))
        if node.kind == INCLUDE_ROLE:
            # roles are looked for beside the playbook of the include's play (an imported one's own folder),
            # not the one compiled last
            compiled_last, self.playbook_dir = self.playbook_dir, context.playbook_dir or self.playbook_dir
            try:
                self.roles.include_role(node, target, context, files)
            finally:
                self.playbook_dir = compiled_last
            return
        path = self._find_tasks_file(target, context)
        if path is None:
            self.compiler.error(self._missing_tasks_file(target, context, SourcePosition.parse(node.position)))
            return
        context = replace(context, search_paths=(str(path.parent), *context.search_paths))
        entries = load_task_file(path, self.is_module)
        block = next((entry for entry in entries if isinstance(entry, Block)), None)
        if node.id in self.handler_includes and block is not None:
            raise UserError("Using a block as a handler is not supported.", block.position)
        self.compile_list(entries, context)


class _ApplyKeywords:
    """``apply:`` keywords of an include, read like a block's."""

    def __init__(self, values: dict[str, Any]):
        for key, value in values.items():
            if key in ("notify", "when") and isinstance(value, str):
                value = [value]  # one handler or condition, as the task keywords read it
            elif key == "tags" and isinstance(value, str):
                value = [tag.strip() for tag in value.split(",") if tag.strip()]
            setattr(self, key, value)

    def __getattr__(self, name: str) -> Any:
        return None


WHEN = "keyword 'when'"
_CONDITIONS = frozenset(f"keyword '{keyword}'" for keyword in ("when", "changed_when", "failed_when", "until"))


def _warn(message: str) -> None:
    sys.stderr.write(f"[WARNING]: {message}\n")


def _templated_values(node: PlanTask) -> list[tuple[str, Any]]:
    """The task's values that may hold templates, each with what to call it in a message."""
    args = node.args if isinstance(node.args, dict) else {}
    named = [(f"argument '{key}'", value) for key, value in args.items()]
    named += [(f"keyword '{keyword}'", getattr(node, keyword)) for keyword in
              ("when", "loop", "changed_when", "failed_when", "until", "environment", "delegate_to")]
    return [*named, ("keyword 'loop_control.label'", node.loop_control.get("label"))]


def _strings(value: Any) -> list[str]:
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def _failure_handled(task: Task, context: Inherited) -> bool:
    """Whether the task's failure is expected to be handled: ignore_errors (its own or inherited, literal or
    templated), or a failed_when that decides for itself."""
    ignore = context.keyword("ignore_errors")
    return task.failed_when is not None or (ignore is not None and ignore is not False)
# ansible-core's actions that run another module with that module's module_defaults (under the action's own)
_RUNS_MODULE = {"gather_facts": "setup"}
