"""An ad-hoc run told as the events of a playbook run (one play, one task), for callbacks that take them:
the run records."""

from __future__ import annotations

from typing import Any

from runner.callbacks.base import Callback, HostStats, PlayInfo, TaskInfo
from runner.callbacks.results import status_of


class AdhocEvents:
    def __init__(self, callback: Callback, pattern: str, module: str, hosts: list[str], *, check: bool):
        self.callback = callback
        self.pattern = pattern
        self.hosts = hosts
        self.check = check
        self.task = TaskInfo(name=module, module=module, position="", check_mode=check)
        self.stats: dict[str, HostStats] = {}

    def start(self) -> None:
        self.callback.playbook_start("", check=self.check)
        self.callback.play_start(PlayInfo(name=f"ad-hoc {self.task.module}", pattern=self.pattern, position="",
                                          check_mode=self.check), self.hosts)
        self.callback.task_start(self.task, self.hosts)

    def host_result(self, host: str, result: dict[str, Any]) -> None:
        self.stats.setdefault(host, HostStats()).count(status_of(result))
        self.callback.host_result(self.task, host, result)

    def end(self, exit_code: int) -> None:
        self.callback.playbook_end(self.stats, exit_code)
