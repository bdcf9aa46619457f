"""The worker side of a playbook run: one task node for one host.

A worker holds, for every host, what the run learnt about it (facts, registered results, set_fact values);
the host's own worker is where these are produced, and the controller broadcasts them to the other workers so
``hostvars`` reads the same everywhere. Per task the worker stacks the variable layers, evaluates ``when``,
expands the loop, templates the arguments, runs the module (through its controller action or the host's agent)
and applies ``until``, ``changed_when``, ``failed_when`` and ``register``.

The result goes back to the controller as a ``TaskResult`` (runner.executor.task_result): the module's result,
its status, and the task's effects on the run (variables and facts to broadcast, an include to expand, a
``meta`` request, hosts and groups added), recorded as the task makes them through its ``TaskRunState``.
"""

from __future__ import annotations

import asyncio
import time
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modules.script import CHECK_MODE_SKIPPED as SCRIPT_SKIPPED
from runner.actions.meta import meta_skipped
from runner.actions.raw import CHECK_MODE_SKIPPED as RAW_SKIPPED
from runner.actions.run_state import AddedHost, JoinedGroup
from runner.ansible_api.deprecations import with_normalized_deprecations
from runner.callbacks.results import CONNECTION_USED, RETRIED
from runner.connection import ConnectionSettings, HostSession
from runner.connection.ansible_connection import add_project_dirs as add_connection_plugin_dirs
from runner.connection.settings import resolved_connection_name
from runner.errors import FAILED_CAUSE, FAILED_IN, NO_TRACEBACK, RETRIES_RAN_OUT, UserError, explained_cause
from runner.executor.chosen_module import with_chosen_module
from runner.executor.connection_vars import BadConnectionVariable, ConnectionSources, SettingsCache
from runner.executor.host_vars_files import HostVarsFiles
from runner.executor.interpreter_discovery import with_omitted_interpreter
from runner.executor.keywords import (
    TaskFailure,
    keyword_value,
    number_keyword,
    task_boolean,
    task_keyword,
    task_number,
)
from runner.executor.module_call import (
    DEFAULT_POLL_INTERVAL,
    ModuleCall,
    async_dir,
    async_limits,
    controller_action,
    execute,
    execute_within,
    module_rlimit_nofile,
    user_removed_by,
    with_invocation,
)
from runner.executor.module_debugger import module_debugger
from runner.executor.result_conditions import apply_result_conditions, condition_error_text, retries_ran_out
from runner.executor.run_options import RunOptions
from runner.executor.run_time_module import run_time_module
from runner.executor.task_args import task_arguments
from runner.executor.task_progress import TaskProgress, mentions_task
from runner.executor.task_result import (
    NOTIFY,
    ROLE_FILE_KEYS,
    ROLE_FLAG_KEYS,
    Include,
    IncludeEntry,
    TaskResult,
    status_of,
)
from runner.executor.task_run_state import TaskRunState
from runner.executor.variables import HostRuntime, task_variables
from runner.module_index import plan_module_index
from runner.plan import Plan, PlanFragment, PlanTask
from runner.templating import OMIT, Templar, TemplateError, drop_omitted, is_template, mark_unsafe
from runner.templating.deprecations import collecting, with_deprecations
from runner.templating.filters.core import to_bool
from runner.util import task_trace
from runner.util.unsafe import UNSAFE_TYPES

if TYPE_CHECKING:
    from runner.inventory import Inventory

NO_LOG_MESSAGE = "the output has been hidden due to the fact that 'no_log: true' was specified for this result"
# What ansible-core's actions answer for these in check mode when no creates/removes lets them decide, without
# reaching the host (command and shell run their module, which answers for itself in check mode).
_SKIPPED_IN_CHECK_MODE: dict[str, dict[str, Any]] = {"raw": RAW_SKIPPED, "script": SCRIPT_SKIPPED}


class PlaybookWorker:
    """The WorkerContext of a playbook run (see runner.executor.pool)."""

    def __init__(self, plan: Plan, inventory: Inventory, options: RunOptions):
        self.plan = plan
        self.inventory = inventory
        self.options = options
        self.nodes: dict[int, PlanTask] = {task.id: task for task in plan.tasks}
        self.scopes = list(plan.scopes)
        self.runtime: dict[str, HostRuntime] = {}
        self.sessions: dict[tuple[str, ConnectionSettings], HostSession] = {}
        self.index = plan_module_index(plan, options.library, options.collections_path)
        self.play_state: dict[str, Any] = {}
        self.host_vars_files = HostVarsFiles()  # the plays' vars_files named with a host's variables
        self.connection_sources = ConnectionSources(options.extra_vars)
        self._settings_cache = SettingsCache()
        self._paths: dict[int, list[Path]] = {}
        # the connection_plugins/ beside the playbook and in its roles, as Ansible adds them when it loads them
        add_connection_plugin_dirs([Path(options.playbook_dir), *(Path(role.path) for role in plan.roles)])

    def __reduce__(self) -> tuple[Any, tuple[str, Inventory, RunOptions]]:
        """How the worker travels to another machine (the Ray executor): its plan as JSON, its inventory and the
        run's options; the worker is rebuilt there from them, as a forked worker starts from the same three."""
        return _worker_from_plan_json, (self.plan.model_dump_json(), self.inventory, self.options)

    # -- state from the controller -------------------------------------------------------------------------
    def host_runtime(self, host: str) -> HostRuntime:
        runtime = self.runtime.get(host)
        if runtime is None:
            runtime = self.runtime[host] = HostRuntime()
        return runtime

    def update(self, message: Mapping[str, Any]) -> None:
        if "inventory" in message:  # meta: refresh_inventory read it anew
            self.inventory = message["inventory"]
            self.connection_sources.forget_inventory()
        if "play" in message:
            self.play_state = message["play"]
        if "play_hosts" in message:  # the batch's hosts that have not failed, as a task starts
            self.play_state = {**self.play_state, "play_hosts": message["play_hosts"]}
        if "fragment" in message:
            fragment = PlanFragment.model_validate(message["fragment"])
            self.nodes.update((task.id, task) for task in fragment.tasks)
            self.scopes.extend(fragment.scopes)
            self.plan.roles.extend(fragment.roles)
        for host, values in message.get("vars", {}).items():
            self.host_runtime(host).set_vars(values)
        for host, values in message.get("include_vars", {}).items():
            self.host_runtime(host).include_vars(values)
        for host, values in message.get("facts", {}).items():
            self.host_runtime(host).facts.update(values)
        for host in message.get("clear_facts", ()):
            self.host_runtime(host).facts.clear()
        for entry in message.get("add_host", ()):
            self.add_host(entry)
        for entry in message.get("add_group", ()):
            self.join_group(entry)

    def add_host(self, entry: AddedHost) -> bool:
        """Apply an added host to this worker's inventory; True when that changed its hosts or groups."""
        changed = entry.changes(self.inventory)
        entry.apply(self.inventory)
        self.connection_sources.forget_inventory()
        return changed

    def join_group(self, entry: JoinedGroup) -> bool:
        changed = entry.changes(self.inventory)
        entry.apply(self.inventory)
        self.connection_sources.forget_inventory()
        return changed

    # -- one task -------------------------------------------------------------------------------------------
    def _with_delegated_vars(self, node: PlanTask, variables: Mapping[str, Any],
                             payload: Mapping[str, Any]) -> Mapping[str, Any]:
        """A delegated task's variables with ``ansible_delegated_vars``, as ansible-core gives them: the host it is
        delegated to, mapped to that host's variables for the task, whose ``inventory_hostname`` stays the host the
        task runs for. A ``delegate_to`` that cannot be rendered yet fails where the task connects, not here."""
        if node.delegate_to is None:
            return variables
        try:
            delegate = task_keyword(Templar(variables), node, "delegate_to")
        except (TemplateError, TaskFailure):
            return variables
        if not delegate:
            return variables
        delegated = ChainMap({"inventory_hostname": variables.get("inventory_hostname")},
                             task_variables(self, str(delegate), node, payload))  # type: ignore[arg-type]
        return ChainMap({"ansible_delegated_vars": {str(delegate): delegated}}, variables)  # type: ignore[arg-type]

    async def handle(self, host: str, payload: Mapping[str, Any]) -> TaskResult:
        node = self.nodes[payload["task"]]
        started = time.monotonic()
        trace = task_trace.begin(host, describe_task(node)) if task_trace.tracing_tasks() else None
        outcome = TaskResult()
        state = TaskRunState(self, outcome)
        variables: Mapping[str, Any] = {}
        with collecting() as deprecations:
            try:
                variables = self._with_delegated_vars(node, task_variables(self, host, node, payload), payload)
                if _reads_progress(node):
                    state.progress = TaskProgress(
                        node.register_projections, summary=_loop_summary,
                        view=lambda result: registered(_public(result), state.controller_made))
                    variables = ChainMap(state.progress.layer, variables)  # type: ignore[arg-type]
                result = await self._run_node(host, node, variables, payload, state)
            except (UserError, TaskFailure, BadConnectionVariable) as exc:  # a template error is a UserError too
                result = task_error(exc, node)
            if node.register_projections and state.progress is not None and not outcome.meta:
                result = self._register_projections(host, node, result, variables, state)
        if deprecations:  # in the result whatever deprecation_warnings says, which only hides their display
            result = with_deprecations(result, deprecations)
        result = with_normalized_deprecations(result)
        if trace is not None:
            trace.work_done()
        outcome.status = status_of(result)
        outcome.duration = round(time.monotonic() - started, 6)
        if result.get("failed") and self._ignores("ignore_errors", result, host, node, payload):
            outcome.ignored = True
        if result.get("unreachable") and self._ignores("ignore_unreachable", result, host, node, payload):
            outcome.ignored = True
        if node.register_var and not outcome.meta:
            state.set_vars(host, {node.register_var: registered(_public(result), state.controller_made)})
        if result.get("changed") and any(is_template(name) for name in node.notify):
            result[NOTIFY] = _notified(node.notify, Templar(variables))
        if self._flag("no_log", host, node, payload):
            result = censor(result)
        if trace is not None:
            trace.finish(outcome.status)
        outcome.result = result
        return outcome

    def _register_projections(self, host: str, node: PlanTask, result: dict[str, Any],
                              variables: Mapping[str, Any], state: TaskRunState) -> dict[str, Any]:
        """Register each projection's value; one whose expression fails is left undefined and fails the task, as
        ansible-core 2.21 fails it: the result keeps its ``msg`` and says why in its ``exception``."""
        assert state.progress is not None and node.register_projections is not None
        values, errors = state.progress.registered(result, variables, self._search_paths(node))
        state.set_vars(host, values)
        if not errors:
            return result
        message = (f"Task failed due to errors in {len(errors)} out of {len(node.register_projections)} register "
                   f"projections: {'; '.join(errors)}")
        return {"msg": message, **result, "failed": True, "exception": message}

    def _ignores(self, keyword: str, result: Mapping[str, Any], host: str, node: PlanTask,
                 payload: Mapping[str, Any]) -> bool:
        """Whether ``keyword`` (ignore_errors, ignore_unreachable) lets the task's failure pass. A loop's is read
        with each item, as ansible-core 2.21 reads it: true for any item lets the whole task's result pass
        (2.19: only when every item that failed was)."""
        verdicts = [item[f"_{keyword}"] for item in result.get("results") or ()
                    if isinstance(item, Mapping) and f"_{keyword}" in item]
        return any(verdicts) if verdicts else self._flag(keyword, host, node, payload)

    def _flag(self, name: str, host: str, node: PlanTask, payload: Mapping[str, Any]) -> bool:
        """A boolean keyword read after the task ran (ignore_errors, no_log ...); one that cannot be read is
        False, so a broken no_log or ignore_errors never hides the task's own outcome."""
        value = getattr(node, name)
        if isinstance(value, bool) or value is None:
            return bool(value)
        try:
            return bool(task_boolean(Templar(task_variables(self, host, node, payload)), node, name, default=False))
        except (TemplateError, TaskFailure):
            return False

    async def _run_node(self, host: str, node: PlanTask, variables: Mapping[str, Any],
                        payload: Mapping[str, Any], state: TaskRunState) -> dict[str, Any]:
        templar = Templar(variables, search_paths=self._search_paths(node))
        try:
            items = self._loop_items(node, templar)
        except TemplateError as error:
            return self._skip_or_raise(node, templar, error)
        if node.kind in ("include_tasks", "include_role"):
            return self._include(node, templar, items, state)
        if items is None:
            skipped = self._false_condition(node, templar)
            if skipped is not None:
                return skipped
            return await self._run_once(host, node, variables, templar, payload, state)
        return await self._run_loop(host, node, variables, items, payload, state)

    def _skip_or_raise(self, node: PlanTask, templar: Templar, error: TemplateError) -> dict[str, Any]:
        """As in Ansible, a loop over something undefined is no error when the task's condition, evaluated
        without an item, is false: the task is skipped. Otherwise the loop's error stands."""
        if not error.undefined or not node.when:
            raise error
        try:
            skipped = self._false_condition(node, templar)
        except TemplateError:
            raise error from None
        if skipped is None:
            raise error
        return skipped

    def _search_paths(self, node: PlanTask) -> list[Path]:
        paths = self._paths.get(node.id)
        if paths is None:  # per node, not per task run: every run of a task looks in the same places
            paths = self._paths[node.id] = [Path(p) for p in node.search_paths] or [Path(self.options.playbook_dir)]
        return paths

    def _false_condition(self, node: PlanTask, templar: Templar) -> dict[str, Any] | None:
        for condition in node.when:
            if not templar.evaluate_conditional(condition):
                if node.kind == "meta":  # worded as ansible-core words a meta request's skip
                    return meta_skipped(node.args, str(templar.variables.get("inventory_hostname", "")))
                return {"changed": False, "skipped": True, "skip_reason": "Conditional result was False",
                        "false_condition": condition}
        return None

    def _include(self, node: PlanTask, templar: Templar, items: list[Any] | None,
                 state: TaskRunState) -> dict[str, Any]:
        """Which file or role to include, once or per loop item; the loop variables become include params."""
        include = node.include or {}
        entries = []
        for index, item in enumerate(items if items is not None else [None]):
            layer = _item_layer(_loop_control(node, templar), items, index) if items is not None else {}
            scope_templar = _child(templar, layer) if layer else templar
            if self._false_condition(node, scope_templar) is not None:
                continue
            # The include's vars stay templates, read when used, as Ansible reads them: one whose value is not
            # known yet ("{{ ansible_os_family }}" before facts) is no error unless a task uses it.
            files = {key: str(scope_templar.template(include[key])) for key in ROLE_FILE_KEYS if include.get(key)}
            entry = IncludeEntry(target=str(scope_templar.template(include.get("file") or include.get("name"))),
                                 vars={**(include.get("vars") or {}), **layer},
                                 files={key: value for key, value in files.items() if value != OMIT},
                                 flags={key: bool(to_bool(scope_templar.template(include[key])))
                                        for key in ROLE_FLAG_KEYS if include.get(key) is not None})
            if include.get("rescuable") is not None:
                rescuable = scope_templar.template(include["rescuable"])
                entry.rescuable = rescuable == OMIT or bool(to_bool(rescuable))
            if items is not None:
                label = node.loop_control.get("label")
                entry.label = str(scope_templar.template(label) if label is not None else item)
            entries.append(entry)
        if not entries:
            return {"changed": False, "skipped": True, "skip_reason": "Conditional result was False"}
        state.outcome.include = Include(node.kind, entries)
        return {"changed": False}

    def _loop_items(self, node: PlanTask, templar: Templar) -> list[Any] | None:
        if node.loop is None:
            return None
        if node.loop_with:
            from runner.templating import run_lookup
            from runner.templating.lookups import loop_subdir, loop_takes_undefined_terms

            terms = (templar.template_omitting_undefined(node.loop) if loop_takes_undefined_terms(node.loop_with)
                     else templar.template(node.loop))
            return list(run_lookup(node.loop_with, terms, templar.variables, self._search_paths(node),
                                   subdir=loop_subdir(node.module_written or node.module or "")))
        items = templar.template_untrusting_results(node.loop)
        if isinstance(items, str):
            raise TaskFailure(f"Invalid data passed to 'loop', it requires a list, got this instead: {items!r}. "
                              "Hint: use 'query' or a with_<lookup> loop")
        if isinstance(items, Mapping):
            raise TaskFailure("Invalid data passed to 'loop', it requires a list, got a mapping. "
                              "Hint: use the dict2items filter")
        return list(items or [])

    async def _run_loop(self, host: str, node: PlanTask, variables: Mapping[str, Any],
                        items: list[Any], payload: Mapping[str, Any], state: TaskRunState) -> dict[str, Any]:
        control = _loop_control(node, Templar(variables))
        loop_var = control.get("loop_var", "item")
        pause = number_keyword(Templar(variables), control.get("pause"), "loop_control.pause", float, default=0.0)
        results: list[dict[str, Any]] = []
        if state.progress is not None:
            state.progress.start_loop(results)
        for index, item in enumerate(items):
            layer = _item_layer(control, items, index)
            item_vars: Mapping[str, Any] = ChainMap(layer, variables)  # type: ignore[arg-type]
            templar = Templar(item_vars, search_paths=self._search_paths(node))
            result = self._false_condition(node, templar)
            if result is None:
                result = await self._run_once(host, node, item_vars, templar, payload, state)
            # What the callbacks show of an item (its host's arrow, label and status) is kept on the item.
            if state.outcome.delegated_to is not None:
                result["_delegated_to"] = state.outcome.delegated_to
                state.outcome.delegated_to = None
            for keyword in ("ignore_errors", "ignore_unreachable"):
                if isinstance(getattr(node, keyword), str):  # a template: read with the item
                    result[f"_{keyword}"] = _item_flag(templar, node, keyword)
            result[loop_var] = item
            result["ansible_loop_var"] = loop_var
            self._label_item(node, control, templar, result)
            stop = control.get("break_when") is not None and _breaks(node, control["break_when"], templar, result)
            result["_status"] = status_of(result)
            results.append(result)
            if state.progress is not None:
                state.progress.item_done(item_vars)
            if stop:
                break
            if pause and index < len(items) - 1:
                await asyncio.sleep(pause)
        return _loop_summary(results)

    @staticmethod
    def _label_item(node: PlanTask, control: Mapping[str, Any], templar: Templar, result: dict[str, Any]) -> None:
        """The item's label, rendered with the registered variable holding this item's result, as Ansible
        registers each item's result as it goes. A label that cannot be rendered is a warning of its item, which
        keeps its status and shows the item instead (ansible-core 2.21; 2.19 failed the item)."""
        if control.get("label") is None:
            return
        if node.register_var:
            templar = _child(templar, {node.register_var: _public(result)})
        try:
            label = keyword_value(templar, control["label"])
        except TemplateError as error:
            result.setdefault("warnings", []).append(f"Failed to template loop_control label: {error.message}")
            return
        if label is not None:  # an omitted label shows the item, as if none were given
            result["_label"] = label

    async def _run_once(self, host: str, node: PlanTask, variables: Mapping[str, Any],
                        templar: Templar, payload: Mapping[str, Any], state: TaskRunState) -> dict[str, Any]:
        """One module call with its retries and result conditions."""
        attempts = _attempts(node, templar)
        delay = task_number(templar, node, "delay", float, default=5.0)
        result: dict[str, Any] = {}
        retried: list[dict[str, Any]] = []
        for attempt in range(1, attempts + 1):
            result = await self._call(host, node, variables, templar, payload, state)
            if attempts > 1:  # changed_when and failed_when may read it too, as in Ansible
                result["attempts"] = attempt
            if state.progress is not None:  # what _task.result shows the conditions from now on
                state.progress.record(result)
            self._apply_conditions(node, result, variables, state.controller_made)
            if attempts == 1:
                break
            if not result.get("unreachable") and self._until_holds(node, templar, result, state.controller_made):
                break
            if attempt < attempts:
                # ansible-core's retries count the first run too; 2.21 reports the attempt about to run, so its
                # "(N retries left)" counts the runs still to come after that one
                retried.append({**result, "retries": attempts, "attempts": attempt + 1})
                await asyncio.sleep(delay)
            else:
                # Ansible's count once retries run out: the retries asked for, not the runs made (one more)
                result["attempts"] = attempts - 1
                retries_ran_out(result)
        if retried:
            result[RETRIED] = retried
        return result

    @staticmethod
    def _until_holds(node: PlanTask, templar: Templar, result: dict[str, Any], controller_made: bool) -> bool:
        """Whether the task stops retrying: its ``until`` holds or, with ``retries`` and no ``until``, it did not
        fail (ansible-core's default condition)."""
        if not node.until:
            return not result.get("failed")
        probe = _child(templar, _result_layer(node, result, controller_made))
        return all(probe.evaluate_conditional(c) for c in node.until)

    def _apply_conditions(self, node: PlanTask, result: dict[str, Any], variables: Mapping[str, Any],
                          controller_made: bool) -> None:
        if result.get("unreachable") or result.get(FAILED_IN) == "task":
            return  # the task itself failed (its arguments could not be rendered): no result to judge
        # a result says whether it failed and whether it changed, as Ansible's always do (a module written against
        # Ansible's API may leave `changed` out of what fail_json returns): `'failed' in result` holds, for a
        # result its module or action skipped too
        result.setdefault("failed", False)
        result.setdefault("changed", False)
        if result.get("skipped"):
            return  # ansible-core judges no changed_when/failed_when on a skip
        if node.changed_when is None and node.failed_when is None:
            return
        templar = Templar(ChainMap(_result_layer(node, result, controller_made), variables))  # type: ignore[arg-type]
        # a list is one condition whose items are ANDed, as Ansible evaluates every conditional list
        apply_result_conditions(result, lambda conditions: all(templar.evaluate_conditional(c) for c in conditions),
                                node.changed_when, node.failed_when, lambda error: _condition_error(error, node))

    async def _call(self, host: str, node: PlanTask, variables: Mapping[str, Any],
                    templar: Templar, payload: Mapping[str, Any], state: TaskRunState) -> dict[str, Any]:
        check = task_boolean(templar, node, "check_mode", default=self.options.check)
        diff = task_boolean(templar, node, "diff", default=self.options.diff)
        module, written = node.module or "", node.args
        if node.written_args is not None:  # a module named by the run's variables
            module, written = run_time_module(self.index, templar, node)
        call = ModuleCall(module, written, host=host, state=state, templar=templar, check=check, diff=diff,
                          verbosity=self.options.verbosity, search_paths=self._search_paths(node),
                          task_vars=variables, task=describe_task(node), collections=list(node.collections))
        if node.kind == "meta":  # its argument names what to do; it is never templated
            return await execute(None, self.index, call)
        action = controller_action(self.index, module)
        try:
            call.args = args = task_arguments(templar, module, written, action.expressions if action else (),
                                              untrusting=action is not None and action.arguments_become_variables)
        except TemplateError as error:  # this call fails, as Ansible's: a loop goes on with its next item
            return task_error(error, node)
        if check and self.index.canonical(module) in _SKIPPED_IN_CHECK_MODE and not _creates_or_removes(args):
            return dict(_SKIPPED_IN_CHECK_MODE[self.index.canonical(module)])
        if action is not None and not action.uses_host:
            # No connection, delegation, async or timeout: the host is not involved (it may be unreachable).
            state.controller_made = True
            result = await execute(None, self.index, call)
            if result.get("failed"):
                result.setdefault(FAILED_IN, "action")
            return result
        delegate = task_keyword(templar, node, "delegate_to")
        target = str(delegate) if delegate else host
        settings = self._settings(target, node, templar, payload, delegated=target != host)
        session = self._session(target, settings)
        call.environment = _environment(templar, node.environment, gathering=node.kind == "facts")
        call.become = settings.become_settings()
        call.remote_tmp = settings.remote_tmp  # the task's: its session's may be another's
        if self.index.get(call.module).chosen_from:
            try:
                call.args = await self._with_chosen_module(node, call, session, variables, target)
            except TemplateError as error:
                return task_error(error, node)
        async_seconds = task_number(templar, node, "async_seconds", int, keyword="async")
        if async_seconds and action is not None and not action.supports_async:
            return {"failed": True, "changed": False,  # Ansible's words, which playbooks compare
                    "msg": f"This action ({self.index.canonical(module)}) does not support async."}
        call.async_dir = async_dir(templar, variables)
        call.rlimit_nofile = module_rlimit_nofile(templar, variables, self.options.module_rlimit_nofile)
        call.debugger = module_debugger(templar, variables)
        poll = task_number(templar, node, "poll", int, default=DEFAULT_POLL_INTERVAL)
        limit, call.background = async_limits(
            async_seconds, poll)
        if delegate and task_boolean(templar, node, "delegate_facts", default=False):
            call.facts_owner = target
        call.no_log = bool(task_boolean(templar, node, "no_log", default=False))
        timeout = task_number(templar, node, "timeout", int)
        if timeout is not None and not 0 <= timeout <= MAX_TASK_TIMEOUT:  # 0 is no limit, as in Ansible
            raise TaskFailure(f"Timeout {timeout} is invalid, it must be between 0 and {MAX_TASK_TIMEOUT}.")
        removed_user = user_removed_by(self.index, call)
        if removed_user is not None:  # an agent running as that user (a session of its own) would keep it "in use"
            await asyncio.gather(*(other.end_agents_of(removed_user) for (name, _), other in self.sessions.items()
                                   if name == target))
        result = await execute_within(session, self.index, call, timeout=timeout, async_limit=limit, poll=poll)
        result = with_invocation(result, self.index, call, templar, self.options.inject_invocation)
        result[CONNECTION_USED] = resolved_connection_name(settings.connection)
        if delegate and target != host:
            state.outcome.delegated_to = target
        return result

    async def _with_chosen_module(self, node: PlanTask, call: ModuleCall, session: HostSession,
                                  variables: Mapping[str, Any], target: str) -> dict[str, Any]:
        """The call's arguments for the module chosen for ``target``: its module_defaults under them."""
        delegated = variables.get("ansible_delegated_vars")
        facts_of = delegated.get(target, variables) if isinstance(delegated, Mapping) else variables

        async def run_setup(arguments: dict[str, Any]) -> dict[str, Any]:
            return await session.run_module("setup", arguments, become=call.become, environment=call.environment,
                                            remote_tmp=call.remote_tmp)

        assert call.templar is not None
        return await with_chosen_module(self.index, self.index.get(call.module), node.chosen_defaults, call.args,
                                        call.templar, facts_of, variables, run_setup)

    def _settings(self, target: str, node: PlanTask, templar: Templar, payload: Mapping[str, Any], *,
                  delegated: bool) -> ConnectionSettings:
        """Connection settings: configuration and command line, then play/task keywords, then the connection
        variables ``target`` has for this task (see runner.executor.connection_vars)."""
        keywords: dict[str, Any] = {}
        for name, setting in (("remote_user", "user"), ("become_user", "become_user"),
                              ("become_method", "become_method"), ("connection", "connection")):
            value = task_keyword(templar, node, name)
            if value is not None:
                keywords[setting] = str(value)
        become = task_boolean(templar, node, "become")
        if become is not None:
            keywords["become"] = become
        base = replace(self.options.defaults, **keywords) if keywords else self.options.defaults
        values = self.connection_sources.values(self, target, node, payload)

        def render(raw: Mapping[str, Any]) -> Mapping[str, Any]:
            # A delegated task's connection variables are templated with the delegated host's variables.
            own = Templar(task_variables(self, target, node, payload)) if delegated else templar
            return with_omitted_interpreter(own.template(dict(raw)))

        return self._settings_cache.get(target, values, base, render)

    def _session(self, host: str, settings: ConnectionSettings) -> HostSession:
        key = (host, settings)
        session = self.sessions.get(key)
        if session is None:
            session = self.sessions[key] = HostSession(settings, self.index)
        return session

    async def close(self) -> None:
        await asyncio.gather(*(session.close() for session in self.sessions.values()), return_exceptions=True)

    def abort(self) -> None:
        for session in self.sessions.values():
            session.abort()


def _worker_from_plan_json(plan: str, inventory: Inventory, options: RunOptions) -> PlaybookWorker:
    return PlaybookWorker(Plan.model_validate_json(plan), inventory, options)


def _environment(templar: Templar, entries: list[Any], *, gathering: bool = False) -> dict[str, Any] | None:
    """The task's ``environment`` (the play's, then the block's and the task's own), templated; an omitted entry
    or variable adds nothing. When gathering facts, a variable that needs ``ansible_env`` (not known before the
    facts) is left out, as Ansible leaves it out."""
    environment: dict[str, Any] = {}
    for entry in entries:
        if gathering and isinstance(entry, Mapping):
            entry = {key: value for key, value in entry.items() if not _needs_facts(templar, value)}
        values = keyword_value(templar, entry)
        if values is None:
            continue
        if not isinstance(values, Mapping):
            raise TaskFailure(f"'environment' must be a mapping of variable names to values, got {values!r}")
        environment.update(drop_omitted(values))
    return environment or None


def _needs_facts(templar: Templar, value: Any) -> bool:
    try:
        templar.template(value)
    except TemplateError as error:
        return error.undefined and "ansible_env" in error.message
    return False


# The largest task timeout, in seconds, Ansible accepts (its alarm's bound).
MAX_TASK_TIMEOUT = 100_000_000


def describe_task(node: PlanTask) -> str:
    """How an error names a task: ``task 'Install packages' at site.yml:12:7`` (the module for unnamed tasks)."""
    return f"task '{node.name or node.module or node.kind}' at {node.position}"


def task_error(exc: UserError | TaskFailure | BadConnectionVariable, node: PlanTask) -> dict[str, Any]:
    """The result of a task that failed on the controller before or instead of its module (a template, a keyword
    or a connection variable). It has ``exception`` as Ansible's has (playbooks test ``result.exception is
    defined``), with no traceback: the message says what is wrong, and where."""
    message = exc.message if isinstance(exc, UserError) else str(exc)
    result = {"failed": True, "changed": False, "msg": f"{message} ({describe_task(node)})",
              "exception": NO_TRACEBACK, FAILED_IN: "task"}
    cause = explained_cause(exc)
    if cause is not None:
        result[FAILED_CAUSE] = cause
    return result


def _reads_progress(node: PlanTask) -> bool:
    """Whether the task needs ansible-core 2.21's ``_task`` variable: it registers projections, or one of its
    conditions reads ``_task``."""
    conditions = [*node.when, *(node.changed_when or ()), *(node.failed_when or ()), *(node.until or ()),
                  node.loop_control.get("break_when")]
    return bool(node.register_projections) or mentions_task(iter(conditions))


def _child(templar: Templar, layer: Mapping[str, Any]) -> Templar:
    """A templar that sees ``layer`` over the variables of ``templar``."""
    return Templar(ChainMap(dict(layer), templar.variables), search_paths=templar.search_paths)  # type: ignore[arg-type]


def _creates_or_removes(args: Mapping[str, Any]) -> bool:
    return bool(args.get("creates") or args.get("removes"))


def _breaks(node: PlanTask, condition: Any, templar: Templar, result: dict[str, Any]) -> bool:
    """Whether ``loop_control.break_when`` ends the loop after this item, read with the item's result registered
    (as ansible-core registers each item's as it goes). As ansible-core 2.21 does, the item keeps the verdict as
    ``break_when_result``; an expression that cannot be evaluated fails the item, ends the loop and leaves its
    error there instead, the failure the item already had kept as ``break_when_suppressed_exception``."""
    if node.register_var:
        templar = _child(templar, {node.register_var: _public(result)})
    try:
        verdict = templar.evaluate_conditional(condition)
    except TemplateError as error:
        if result.get("failed"):  # every failure has an exception to ansible-core, if only "(traceback unavailable)"
            result["break_when_suppressed_exception"] = result.get("exception", NO_TRACEBACK)
        cause = str(error.__cause__) if error.__cause__ is not None else error.summary
        result.update({"failed": True, "exception": NO_TRACEBACK, FAILED_IN: "action",
                       "break_when_result": f"Error rendering expression: {cause}"})
        return True
    result["break_when_result"] = verdict
    return verdict


def _condition_error(error: TemplateError, node: PlanTask) -> str:
    return f"{condition_error_text(error.message)} ({describe_task(node)})"


def _item_flag(templar: Templar, node: PlanTask, keyword: str) -> bool:
    """A boolean keyword read with one loop item's variables; one that cannot be read is False (see _flag)."""
    try:
        return bool(task_boolean(templar, node, keyword, default=False))
    except (TemplateError, TaskFailure):
        return False


def _attempts(node: PlanTask, templar: Templar) -> int:
    """How many times a task runs at most, as ansible-core counts: once, plus ``retries`` when the task sets it
    (with or without ``until``), or plus 3 when it has ``until`` alone; ``retries: 0`` runs it once, ``until``
    unchecked."""
    retries = task_number(templar, node, "retries", int)
    if retries is not None:
        return 1 + max(0, retries)
    return 4 if node.until else 1


def _notified(names: list[str], templar: Templar) -> list[str]:
    """The handler names and topics a changed task notifies, rendered with its variables as ansible-core renders
    ``notify``: one template may give a list of names. One that cannot be rendered stays as written."""
    rendered: list[str] = []
    for name in names:
        try:
            value = templar.template(name) if is_template(name) else name
        except TemplateError:
            value = name
        rendered += [str(each) for each in value] if isinstance(value, (list, tuple)) else [str(value)]
    return rendered


def registered(result: dict[str, Any], controller_made: bool) -> Any:
    """A result as ``register`` keeps it. What a host sent is data, never a template (marked unsafe). The result of
    an action that never used the host is the controller's own: its text stays trusted as an expression (set_fact's
    values as written, a loop's items, as Ansible 2.19 keeps their tags; host data in it is marked already), except
    text holding a template (a message quoting one), which is data: never rendered when the result is read."""
    return _untrusting_templates(result) if controller_made else mark_unsafe(result)


def _untrusting_templates(value: Any) -> Any:
    if isinstance(value, str):
        return mark_unsafe(value) if is_template(value) else value
    if isinstance(value, UNSAFE_TYPES):
        return value
    if isinstance(value, Mapping):
        return {_untrusting_templates(key): _untrusting_templates(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_untrusting_templates(item) for item in value]
    return value


def _result_layer(node: PlanTask, result: Mapping[str, Any], controller_made: bool) -> dict[str, Any]:
    """What ``until``, ``changed_when`` and ``failed_when`` read of a result: the result as later tasks will read
    it, as ``result`` and under the task's ``register`` name."""
    public = registered(_public(result), controller_made)
    return {"result": public, **({node.register_var: public} if node.register_var else {})}


def _public(result: Mapping[str, Any]) -> dict[str, Any]:
    """The result as a task registers it: without the run's own ``_`` keys, a loop's items' included; a failed
    one has an ``exception``, as in Ansible, but for one only the retries failed (ansible-core 2.21 gives it none)
    and a loop's (its items have theirs; ansible-core's loop result has none)."""
    public = {k: v for k, v in result.items() if not k.startswith("_")}
    items = public.get("results")
    looped = isinstance(items, list) and any(isinstance(item, Mapping) and "ansible_loop_var" in item
                                             for item in items)  # a module's own `results` are no loop
    if public.get("failed") and "exception" not in public and result.get(FAILED_IN) != RETRIES_RAN_OUT \
            and not looped:
        public["exception"] = NO_TRACEBACK
    if isinstance(items, list):
        public["results"] = [_public(item) if isinstance(item, Mapping) else item for item in items]
    return public


def _loop_control(node: PlanTask, templar: Templar) -> dict[str, Any]:
    """``loop_control`` with its variable names rendered (``loop_var: "{{ name }}"``, as Ansible allows)."""
    control = node.loop_control
    return {**control, **{key: keyword_value(templar, control[key]) for key in ("loop_var", "index_var")
                          if key in control}}


def _item_layer(control: Mapping[str, Any], items: list[Any], index: int) -> dict[str, Any]:
    """The variables one loop item adds: the loop variable, and the index and ``ansible_loop`` when asked for."""
    loop_var = control.get("loop_var", "item")
    layer: dict[str, Any] = {loop_var: items[index], "ansible_loop_var": loop_var}
    if control.get("index_var"):
        layer[control["index_var"]] = index
        layer["ansible_index_var"] = control["index_var"]
    if control.get("extended"):
        layer["ansible_loop"] = _loop_info(items, index)
        if control.get("extended_allitems") is False:  # a long loop would copy every item into every item
            del layer["ansible_loop"]["allitems"]
    return layer


def _loop_info(items: list[Any], index: int) -> dict[str, Any]:
    length = len(items)
    info = {"allitems": items, "index": index + 1, "index0": index, "revindex": length - index,
            "revindex0": length - index - 1, "first": index == 0, "last": index == length - 1, "length": length}
    # the first item has no previtem and the last no nextitem: undefined, as in Ansible, not None
    if index > 0:
        info["previtem"] = items[index - 1]
    if index < length - 1:
        info["nextitem"] = items[index + 1]
    return info


def _loop_summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A loop's own result, as ansible-core 2.21 makes it: ``failed`` always there, the items' warnings and
    deprecations gathered (2.19 left both out); a loop over nothing is skipped with ``skip_reason`` (and 2.19's
    ``skipped_reason``) and no ``msg``, one whose items were all skipped says so."""
    summary: dict[str, Any] = {"results": results, "changed": any(r.get("changed") for r in results),
                               "failed": False}
    if not results:
        summary.update(skipped=True, skip_reason="No items in the list", skipped_reason="No items in the list")
        return summary
    summary["msg"] = "All items completed"
    if all(r.get("skipped") for r in results):
        summary.update(skipped=True, msg="All items skipped")  # both ansible-cores' words for it
    # `failed` always, as ansible-core 2.21 registers it (`'failed' in result` holds for a loop too)
    summary["failed"] = any(r.get("failed") for r in results)
    if summary["failed"]:
        summary["msg"] = "One or more items failed"
    if any(r.get("unreachable") for r in results):
        summary["unreachable"] = True
    for key in ("warnings", "deprecations"):
        gathered = [each for r in results for each in r.get(key) or ()]
        if gathered:
            summary[key] = gathered
    return summary


def censor(result: dict[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in result.items() if k.startswith("_") or k in ("changed", "failed", "skipped",
                                                                         "unreachable", "attempts")}
    kept["censored"] = NO_LOG_MESSAGE
    if "results" in result:
        kept["results"] = [censor(r) for r in result["results"]]
    return kept
