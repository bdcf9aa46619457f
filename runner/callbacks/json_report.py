"""The whole run as one JSON document, shaped like Ansible's json callback so tools that read it keep working.

    {"plays": [{"play": {"name", "id", "path", "duration": {"start", "end"}},
                "tasks": [{"task": {"name", "id", "path", "duration": {...}}, "hosts": {"web1": {result}}}]}],
     "stats": {"web1": {"ok", "changed", "unreachable", "failures", "skipped", "rescued", "ignored"}},
     "custom_stats": {}, "global_custom_stats": {}}

``--report json:FILE`` writes it to FILE when the run ends (atomically); the ``json`` stdout callback prints it.
"""

from __future__ import annotations

import json
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from runner.callbacks.base import Callback, HostStats, PlayInfo, TaskInfo
from runner.callbacks.log_file import LogFile
from runner.callbacks.results import report_result
from runner.util.files import atomic_write_text


def now() -> str:
    """UTC time as Ansible's json callback writes it: ISO 8601 with microseconds and a Z."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def stats_summary(stats: HostStats) -> dict[str, int]:
    """One host's counts under Ansible's names (``failures``, not ``failed``)."""
    return {"ok": stats.ok, "changed": stats.changed, "unreachable": stats.unreachable, "failures": stats.failed,
            "skipped": stats.skipped, "rescued": stats.rescued, "ignored": stats.ignored}


class JsonReport(Callback):
    """Collects plays, tasks and per-host results; at the end writes them to ``path`` or prints them (and
    records them in ``log``, as the stdout view)."""

    def __init__(self, path: str | Path | None = None, *, stream: TextIO | None = None, log: LogFile | None = None):
        self.path = Path(path) if path is not None else None
        self.stream = stream
        self.log = log
        self.plays: list[dict[str, Any]] = []
        self._tasks: dict[tuple[str, str, bool], dict[str, Any]] = {}  # the current play's tasks, by identity

    def play_start(self, play: PlayInfo, hosts: list[str]) -> None:
        self.plays.append({"play": {"name": play.name, "id": str(uuid.uuid4()), "path": play.position,
                                    "duration": {"start": now()}}, "tasks": []})
        self._tasks = {}

    def task_start(self, task: TaskInfo, hosts: list[str]) -> None:
        self._task_entry(task)

    def _task_entry(self, task: TaskInfo) -> dict[str, Any]:
        """The entry of ``task`` in the current play, made on first sight (free strategy starts a task per host)."""
        key = (task.uid or task.position, task.title, task.is_handler)
        entry = self._tasks.get(key)
        if entry is None:
            if not self.plays:  # a result outside any play: give it one so nothing is lost
                self.play_start(PlayInfo(name="", pattern="", position=""), [])
            entry = {"task": {"name": task.title, "id": str(uuid.uuid4()), "path": task.position,
                              "duration": {"start": now()}}, "hosts": {}}
            self.plays[-1]["tasks"].append(entry)
            self._tasks[key] = entry
        return entry

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        entry = self._task_entry(task)
        recorded = report_result(task, result)
        recorded["action"] = task.module
        entry["hosts"][host] = recorded
        finished = now()
        entry["task"]["duration"]["end"] = finished
        self.plays[-1]["play"]["duration"]["end"] = finished

    def document(self, stats: dict[str, HostStats]) -> dict[str, Any]:
        return {"plays": self.plays, "stats": {host: stats_summary(stats[host]) for host in sorted(stats)},
                "custom_stats": {}, "global_custom_stats": {}}

    def playbook_end(self, stats: dict[str, HostStats], exit_code: int) -> None:
        text = json.dumps(self.document(stats), indent=4, sort_keys=True, ensure_ascii=False, default=str) + "\n"
        if self.path is not None:
            atomic_write_text(self.path, text, mode=None)  # an ordinary file: the umask decides
        else:
            stream = self.stream or sys.stdout
            stream.write(text)
            stream.flush()
            if self.log is not None:
                self.log.info(text)
