"""The typed envelope of one task's result on one host: built by the worker, read by the controller.

``result`` is what the module (or action) returned, as users see it and ``register`` keeps it; the other fields
are what the controller must act on: the outcome, and the task's effects on the run (variables and facts to
broadcast to the other workers, hosts and groups that joined the inventory, an include to expand, a ``meta``
request). It crosses the worker pipe as it is, pickled as a call of its constructor with the fields that are set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from runner.actions.run_state import AddedHost, JoinedGroup

Status = Literal["ok", "changed", "failed", "skipped", "unreachable"]
# Values a task set for hosts, by host: set_fact/register values, include_vars values, facts.
HostValues = dict[str, dict[str, Any]]


def status_of(result: Mapping[str, Any]) -> Status:
    if result.get("unreachable"):
        return "unreachable"
    if result.get("failed"):
        return "failed"
    if result.get("skipped"):
        return "skipped"
    return "changed" if result.get("changed") else "ok"


# The keywords of include_role that name a file of the role to read instead of ``main``.
ROLE_FILE_KEYS = ("tasks_from", "handlers_from", "vars_from", "defaults_from")
# include_role's switches, each a boolean or a template of one
ROLE_FLAG_KEYS = ("public", "allow_duplicates", "rolespec_validate")
# A changed result's notifications when the task's ``notify`` had templates: rendered with its variables where it ran.
NOTIFY = "_notify"


@dataclass(slots=True)
class IncludeEntry:
    """One file or role an include brings in for this host (one per loop item), with its include params."""

    target: str
    vars: dict[str, Any] = field(default_factory=dict)
    label: str | None = None  # the loop item's label, when the include loops
    # include_role's tasks_from, handlers_from, vars_from and defaults_from, rendered for this host (an omitted
    # one left out)
    files: dict[str, str] = field(default_factory=dict)
    # include_role's public, allow_duplicates and rolespec_validate, as given, rendered for this host
    flags: dict[str, bool] = field(default_factory=dict)
    # include_role's rescuable (ansible-core 2.21): whether a role or file it names that is missing fails the task
    # (a rescue catches it) or ends the run as an error in the playbook
    rescuable: bool = True


@dataclass(slots=True)
class Include:
    kind: str  # include_tasks or include_role
    entries: list[IncludeEntry]


@dataclass(slots=True)
class TaskResult:
    result: dict[str, Any] = field(default_factory=dict)
    status: Status = "ok"
    duration: float = 0.0  # seconds
    ignored: bool = False  # failed or unreachable, and ignore_errors/ignore_unreachable said go on
    delegated_to: str | None = None
    include: Include | None = None
    meta: str | None = None
    vars: HostValues = field(default_factory=dict)
    include_vars: HostValues = field(default_factory=dict)
    facts: HostValues = field(default_factory=dict)
    added_hosts: list[AddedHost] = field(default_factory=list)
    joined_groups: list[JoinedGroup] = field(default_factory=list)
    cached: HostValues = field(default_factory=dict)  # set_fact cacheable values, for the fact cache

    def __reduce__(self) -> tuple[type[TaskResult], tuple[Any, ...]]:
        # Pickled as a constructor call with the fields up to the last one that is set: a task that changed
        # nothing in the run costs about what its result dict did (the generated __getstate__ costs 4x more).
        values = (self.result, self.status, self.duration, self.ignored, self.delegated_to, self.include, self.meta,
                  self.vars, self.include_vars, self.facts, self.added_hosts, self.joined_groups, self.cached)
        end = len(values)
        while end > 3 and not values[end - 1]:
            end -= 1
        return TaskResult, values[:end]

    @property
    def failed(self) -> bool:
        return bool(self.result.get("failed"))

    @property
    def unreachable(self) -> bool:
        return bool(self.result.get("unreachable"))

    @property
    def changed(self) -> bool:
        return bool(self.result.get("changed"))

    def host_values(self) -> dict[str, HostValues]:
        """The values this task set for hosts, by kind, as the update message to the workers names them."""
        facts = self.facts
        if self.cached:  # a cacheable set_fact's values are facts too (TaskRunState.cache_vars)
            facts = {host: {**self.facts.get(host, {}), **self.cached.get(host, {})}
                     for host in {*self.facts, *self.cached}}
        return {"vars": self.vars, "include_vars": self.include_vars, "facts": facts}

    def shown(self) -> dict[str, Any]:
        """The result as callbacks receive it: the module's keys and the executor's ``_status``, ``_duration``,
        ``_ignored``, ``_delegated_to`` and ``_facts`` (see runner.callbacks.base)."""
        shown = dict(self.result)
        shown["_status"] = self.status
        shown["_duration"] = self.duration
        if self.ignored:
            shown["_ignored"] = True
        if self.delegated_to is not None:
            shown["_delegated_to"] = self.delegated_to
        if self.facts:
            shown["_facts"] = self.facts
        return shown


def received(reply: TaskResult | Mapping[str, Any]) -> TaskResult:
    """A worker's reply as an envelope: a worker that hit a bug reports it as a plain failed result."""
    if isinstance(reply, TaskResult):
        return reply
    result = dict(reply)
    return TaskResult(result=result, status=status_of(result))
