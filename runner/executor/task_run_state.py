"""The run state a playbook task's actions change: the worker's own state, at once, and the task's result, so
the controller can tell the other workers (see runner.actions.run_state)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from runner.actions.run_state import AddedHost, JoinedGroup
from runner.executor.task_progress import TaskProgress
from runner.executor.task_result import TaskResult
from runner.executor.variables import HostRuntime
from runner.templating import mark_unsafe


class WorkerRunState(Protocol):
    """The worker's own state, as a task changes it (``runner.executor.playbook_worker.PlaybookWorker``)."""

    def host_runtime(self, host: str) -> HostRuntime: ...

    def add_host(self, entry: AddedHost) -> bool: ...

    def join_group(self, entry: JoinedGroup) -> bool: ...


class TaskRunState:
    """One task on one host: what it changes goes to ``worker`` and is recorded in ``outcome``."""

    def __init__(self, worker: WorkerRunState, outcome: TaskResult):
        self.worker = worker
        self.outcome = outcome
        # The result is the controller's own (an action that never used the host: set_fact, debug, assert ...)
        self.controller_made = False
        # What ansible-core 2.21's ``_task`` variable shows, for a task that reads it or registers projections
        self.progress: TaskProgress | None = None

    def set_vars(self, host: str, values: Mapping[str, Any]) -> None:
        self.worker.host_runtime(host).set_vars(values)
        self.outcome.vars.setdefault(host, {}).update(values)

    def include_vars(self, host: str, values: Mapping[str, Any]) -> None:
        self.worker.host_runtime(host).include_vars(values)
        self.outcome.include_vars.setdefault(host, {}).update(values)

    def cache_vars(self, host: str, values: Mapping[str, Any]) -> None:
        # a cacheable set_fact's values are facts of the host too, under their own names (ansible_facts.foo), as
        # ansible-core sets both the fact and the variable
        self.worker.host_runtime(host).facts.update(values)
        self.outcome.cached.setdefault(host, {}).update(values)

    def set_facts(self, host: str, facts: Mapping[str, Any], named: bool = False) -> None:
        facts = mark_unsafe(dict(facts))  # what a host reports is data, never a template to render
        runtime = self.worker.host_runtime(host)
        runtime.facts.update(facts)
        if named:
            runtime.named_facts.update(facts)
        self.outcome.facts.setdefault(host, {}).update(facts)

    def add_host(self, entry: AddedHost) -> bool:
        self.outcome.added_hosts.append(entry)
        return self.worker.add_host(entry)

    def join_group(self, entry: JoinedGroup) -> bool:
        self.outcome.joined_groups.append(entry)
        return self.worker.join_group(entry)

    def request_meta(self, action: str) -> None:
        self.outcome.meta = action
