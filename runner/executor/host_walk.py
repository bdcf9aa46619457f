"""One host's way through a list of task nodes: blocks with rescue/always, dynamic includes, failures.

``walk`` is a generator: it yields a ``Step`` (the next node for this host, with the ordering key that keeps
hosts in lockstep under the linear strategy) and receives that node's result. A failure that no rescue catches
ends the walk with ``HostFailed``; an unreachable host with ``HostUnreachable``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

from runner.executor.resume import Key
from runner.executor.task_result import IncludeEntry, TaskResult
from runner.plan import PlanTask


@dataclass
class Step:
    key: Key
    node: PlanTask
    vars: dict[str, Any] = field(default_factory=dict)  # include params and the include's loop item


class HostFailed(Exception):
    """The host failed ``node`` with ``result``; ``own`` is False when another host's failure under
    any_errors_fatal failed it (it did not fail a task of its own, so there is no failure of its own to rescue
    in its counts)."""

    def __init__(self, node: PlanTask, result: TaskResult, own: bool = True):
        super().__init__(node.name)
        self.node = node
        self.result = result
        self.own = own


class HostUnreachable(Exception):
    pass


class IncludeFailed(Exception):
    """What an include names for a host does not exist (reported already): the host fails the include. ``key``:
    the result key its message is under (ansible-core 2.21: ``msg`` for a role, ``reason`` for a file)."""

    def __init__(self, message: str, key: str = "reason"):
        super().__init__(message)
        self.key = key


class HostEnded(Exception):
    """meta: end_host (or end_play, for every host)."""


Walk = Generator[Step, TaskResult, None]
# Compiles an include for a host: (include node, one entry of its result) -> the included node ids; raises
# IncludeFailed when the entry names nothing.
IncludeResolver = Callable[[PlanTask, IncludeEntry], list[int]]


class HostWalker:
    def __init__(self, nodes: Mapping[int, PlanTask], resolve_include: IncludeResolver,
                 on_rescue: Callable[[HostFailed], None], skip: frozenset[int] = frozenset(),
                 resumes_later: Callable[[Key, PlanTask], bool] | None = None):
        self.nodes = nodes
        self.resolve_include = resolve_include
        self.on_rescue = on_rescue
        self.skip = skip  # task ids never run (those before --start-at-task)
        self.resumes_later = resumes_later  # --resume: whether a step comes before where the host stopped
        self.errors_cleared = False  # a meta: clear_host_errors ran since the innermost always began

    def walk(self, ids: list[int], prefix: Key = (), params: dict[str, Any] | None = None) -> Walk:
        params = params or {}
        for task_id in ids:
            if task_id in self.skip:
                continue
            node = self.nodes[task_id]
            key = (*prefix, task_id)
            if node.kind == "block":
                yield from self._block(node, prefix, params)
                continue
            if self.resumes_later is not None and self.resumes_later(key, node):
                continue
            result = yield Step(key, node, params)
            if result.unreachable and not result.ignored:
                raise HostUnreachable(node.name)
            if result.failed and not result.ignored:
                raise HostFailed(node, result)
            if result.include is not None:
                included = self._resolve(node, result)
                for number, (entry, ids) in enumerate(zip(result.include.entries, included, strict=True)):
                    yield from self.walk(ids, (*key, number), {**params, **entry.vars})
            if result.meta in ("end_host", "end_play"):
                raise HostEnded(result.meta)
            if result.meta == "clear_host_errors":
                self.errors_cleared = True

    def _resolve(self, node: PlanTask, result: TaskResult) -> list[list[int]]:
        """Every entry's included ids. As in ansible-core, all of an include's entries are loaded before any of
        their tasks runs, and one that names nothing fails the host there (a rescue catches it)."""
        assert result.include is not None
        included: list[list[int]] = []
        reasons: list[IncludeFailed] = []
        for entry in result.include.entries:
            try:
                included.append(self.resolve_include(node, entry))
            except IncludeFailed as failed:
                reasons.append(failed)
        if reasons:
            failure = TaskResult(result={**result.result, "failed": True, reasons[-1].key: str(reasons[-1])},
                                 status="failed")
            raise HostFailed(node, failure, own=False)  # counted where each was reported
        return included

    def _block(self, node: PlanTask, prefix: Key, params: dict[str, Any]) -> Walk:
        failure: HostFailed | None = None
        try:
            yield from self.walk(node.block, prefix, params)
        except HostFailed as exc:
            if node.rescue:
                self.on_rescue(exc)
                try:
                    yield from self.walk(node.rescue, prefix, params)
                except HostFailed as again:
                    failure = again
            else:
                failure = exc
        if node.always:
            self.errors_cleared = False
            yield from self.walk(node.always, prefix, params)
            if self.errors_cleared:  # meta: clear_host_errors in the always: the host goes on, as in Ansible
                failure = None
        if failure is not None:
            raise failure
