"""The ``-vv`` lines ansible-core's engine prints itself rather than its stdout callback: ``N plays in PATH``
(the playbook executor) and ``META: ...`` (the strategy). They are on stdout whatever the stdout callback
(minimal, oneline, json, yaml, a callback plugin), after what the callback printed for the same event."""

from __future__ import annotations

from typing import TextIO

from runner.callbacks.base import Callback, TaskInfo
from runner.callbacks.log_file import LogFile
from runner.callbacks.terminal import Terminal


class EngineLines(Callback):
    """Placed right after the stdout view, so that a task's header (the default view's) comes before its
    ``META:`` line."""

    def __init__(
        self,
        *,
        verbosity: int,
        nocolor: bool = False,
        force_color: bool = False,
        stream: TextIO | None = None,
        log: LogFile | None = None,
    ):
        self.verbosity = verbosity
        self.out = Terminal(stream, nocolor=nocolor, force_color=force_color, log=log)

    def playbook_start(self, path: str, check: bool = False, plays: int = 0) -> None:
        if self.verbosity >= 2 and path:
            self.out.line(f"{plays} plays in {path}", "debug")

    def meta_result(self, task: TaskInfo, host: str, message: str) -> None:
        if self.verbosity >= 2 and message:
            self.out.line(f"META: {message}", "debug")
