"""Timing of one host-task for the ``-vvvv`` trace: where its time went (templating, the module, the result).

The worker starts a ``TaskTrace`` for a host-task only when the trace is on (``begin``); the agent client adds
each exchange's round trip to the trace of the task it serves (found through a context variable: each job runs in
its own asyncio task, so concurrent hosts never see each other's). With the trace off nothing is created and the
agent client's check is one context variable read.
"""

from __future__ import annotations

import logging
import time
from contextvars import ContextVar
from dataclasses import dataclass, field

from runner.util.logging import milliseconds

_log = logging.getLogger(__name__)


@dataclass
class TaskTrace:
    host: str
    task: str  # how the trace names the task: its name (or module) and position
    started: float = field(default_factory=time.perf_counter)
    remote: float = 0.0  # seconds spent waiting for the agent (sum of the exchanges' round trips)
    setup: float = 0.0  # seconds spent opening the connection and starting agents for this task
    exchanges: int = 0
    ran: float | None = None  # when the task's own work ended and result handling began

    def add_exchange(self, seconds: float) -> None:
        self.exchanges += 1
        self.remote += seconds

    def add_setup(self, seconds: float) -> None:
        self.setup += seconds

    def work_done(self) -> None:
        self.ran = time.perf_counter()

    def finish(self, status: str) -> None:
        """Log the host-task's timing: templating and conditions (everything on the worker before and between
        module calls), opening the connection and starting an agent (the host's first task), the module's
        exchanges with the agent, and result handling (register, no_log)."""
        ended = time.perf_counter()
        ran = self.ran if self.ran is not None else ended
        local = max(0.0, ran - self.started - self.remote - self.setup)
        setup = f" + connection and agent start {milliseconds(self.setup)}" if self.setup else ""
        _log.debug("[%s] TASK TIMING %s: %s %s = templating %s%s + module %s (%d exchange%s) + result %s",
                    self.host, self.task, status, milliseconds(ended - self.started), milliseconds(local), setup,
                    milliseconds(self.remote), self.exchanges, "" if self.exchanges == 1 else "s",
                    milliseconds(ended - ran))


current_task: ContextVar[TaskTrace | None] = ContextVar("current_task", default=None)


def begin(host: str, task: str) -> TaskTrace:
    """Start timing a host-task in the current asyncio task (call only when ``_log`` is enabled for DEBUG)."""
    trace = TaskTrace(host, task)
    current_task.set(trace)
    return trace


def tracing_tasks() -> bool:
    return _log.isEnabledFor(logging.DEBUG)
