"""The recorder callback: sits beside the terminal view and the reports, and only queues what it is told.

Every event is appended to a queue with the time it happened; the writer thread (``runner.records.writer``)
turns them into rows and writes them in batches, so a task's results cost the controller one queue append each.
The thread starts with the run (after the workers have forked) and is waited for when the run ends.
"""

from __future__ import annotations

import queue
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from runner.callbacks.base import Callback, HostStats, PlayInfo, TaskInfo
from runner.records.liveness import utc_now

if TYPE_CHECKING:
    from runner.records.description import RunDescription
    from runner.records.location import DatabaseTarget
    from runner.records.writer import RecordWriter


class RunRecorder(Callback):
    def __init__(self, target: DatabaseTarget, description: RunDescription):
        self.target = target
        self.description = description
        self.events: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self.writer: RecordWriter | None = None
        self._play = 0
        self._task_count = 0
        self._tasks: dict[tuple[str, str, bool], int] = {}  # the current play's tasks, by identity

    def playbook_start(self, path: str, check: bool = False, plays: int = 0) -> None:
        from runner.records.writer import RecordWriter  # loaded only when a run is recorded

        self.writer = RecordWriter(self.target, self.description, self.events)
        self.events.put(("run", utc_now()))
        self.writer.start()

    def play_start(self, play: PlayInfo, hosts: list[str]) -> None:
        self._play += 1
        self._tasks = {}
        self.events.put(("play", self._play, play, utc_now()))

    def task_start(self, task: TaskInfo, hosts: list[str]) -> None:
        self._task_seq(task)

    def _task_seq(self, task: TaskInfo) -> int:
        """The task's number in the run, given on first sight (the free strategy starts a task once per host)."""
        key = (task.uid or task.position, task.title, task.is_handler)
        seq = self._tasks.get(key)
        if seq is None:
            self._task_count += 1
            seq = self._tasks[key] = self._task_count
            self.events.put(("task", seq, self._play, task, utc_now()))
        return seq

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        self.events.put(("result", self._task_seq(task), task, host, result, utc_now()))

    def host_values(self, task: TaskInfo | None, host: str, values: dict[str, dict[str, Any]]) -> None:
        self.events.put(("values", None if task is None else self._task_seq(task), task, host, values))

    def play_hosts_done(self, hosts: list[str]) -> None:
        self.events.put(("play_hosts", self._play, list(hosts)))

    def playbook_end(self, stats: dict[str, HostStats], exit_code: int) -> None:
        counts = {host: asdict(host_stats) for host, host_stats in stats.items()}
        self.events.put(("end", counts, exit_code, utc_now()))
        if self.writer is not None:
            self.writer.close()
