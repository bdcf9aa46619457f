"""The ``minimal`` and ``oneline`` stdout callbacks for playbooks: one ``host | STATE => {...}`` per result.

They print each result as the ad-hoc command does (``runner.callbacks.adhoc``), with no headers and no recap.
"""

from __future__ import annotations

from typing import Any, TextIO

from runner.callbacks.adhoc import AdhocDisplay
from runner.callbacks.base import Callback, TaskInfo
from runner.callbacks.log_file import LogFile
from runner.callbacks.results import report_result, short_module


class MinimalDisplay(Callback):
    def __init__(self, *, one_line: bool = False, verbosity: int = 0, nocolor: bool = False,
                 force_color: bool = False, stream: TextIO | None = None, log: LogFile | None = None):
        self.display = AdhocDisplay(one_line=one_line, verbosity=verbosity, stream=stream, nocolor=nocolor,
                                    force_color=force_color, log=log)

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        if "_include" in result:
            return
        self.display.host_result(host, short_module(task.module), report_result(task, result))

    def warning(self, message: str) -> None:
        self.display.warning(message)
