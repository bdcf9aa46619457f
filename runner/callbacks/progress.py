"""A live progress view for long runs on a terminal (``stdout_callback = progress``).

One status area is redrawn in place: the current play and task, how many of the task's hosts are done, the
run's counts of ok/changed/failed/unreachable/skipped results, and the time since the start. Everything a person
must be able to scroll back to is still printed in full above it by the default view: play headers, failures
(with their task header), diffs under --diff, warnings and the recap. Off a terminal the default view is used
instead (see ``runner.callbacks.make_callbacks``).
"""

from __future__ import annotations

import io
import time
from typing import Any, TextIO, cast

from rich.console import Console, RenderableType
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from runner.callbacks.base import Callback, HostStats, PlayInfo, TaskInfo
from runner.callbacks.default import DefaultDisplay
from runner.callbacks.log_file import LogFile
from runner.callbacks.results import status_of

COUNTED = (("ok", "green"), ("changed", "yellow"), ("failed", "red"), ("unreachable", "bold red"),
           ("skipped", "cyan"), ("ignored", "magenta"))


class ConsoleStream(io.TextIOBase):
    """A text stream that prints whole lines through a rich console, so they land above its live area."""

    def __init__(self, console: Console):
        super().__init__()
        self.console = console
        self._pending = ""

    def write(self, text: str) -> int:
        self._pending += text
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            self.console.print(Text.from_ansi(line), soft_wrap=True)
        return len(text)

    def isatty(self) -> bool:
        return self.console.is_terminal


class ProgressDisplay(Callback):
    def __init__(self, *, verbosity: int = 0, diff: bool = False, nocolor: bool = False,
                 console: Console | None = None, log: LogFile | None = None,
                 results: dict[str, Any] | None = None):
        """``results``: how failures are printed (result_format, pretty_results), as by the default view."""
        self.console = console or Console(no_color=nocolor, highlight=False)
        # A TextIOBase, which writes as a TextIO does, though typeshed keeps the two classes apart.
        stream = cast(TextIO, ConsoleStream(self.console))
        self.full = DefaultDisplay(verbosity=verbosity, diff=diff, nocolor=nocolor, stream=stream, err=stream,
                                   columns=max(79, self.console.width - 1), hide=("ok", "changed", "skipped"),
                                   log=log, **(results or {}))
        self.started = time.monotonic()
        self.play = ""
        self.task = ""
        self.task_hosts: list[str] = []
        self.done: set[str] = set()
        self.counts = dict.fromkeys([name for name, _ in COUNTED], 0)
        # Made last: Live draws the status once when it is made. Other output goes through ``self.full``.
        self.live = Live(console=self.console, get_renderable=self.render, transient=True, refresh_per_second=4,
                         redirect_stdout=False, redirect_stderr=False)

    # -- what is drawn ------------------------------------------------------------------------------------
    def summary(self) -> Text:
        """The status text: play and task, then elapsed time, hosts done and counts (cut, never wrapped)."""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("PLAY ", style="bold").append(f"[{self.play}]  ")
        text.append("TASK ", style="bold").append(f"[{self.task}]\n")
        minutes, seconds = divmod(int(time.monotonic() - self.started), 60)
        text.append(f"{minutes // 60:d}:{minutes % 60:02d}:{seconds:02d}", style="dim")
        text.append(f"  hosts {len(self.done)}/{len(self.task_hosts)} ")
        for name, style in COUNTED:
            text.append(" ").append(f"{name}={self.counts[name]}", style=style if self.counts[name] else None)
        return text

    def render(self) -> RenderableType:
        return Spinner("dots", text=self.summary())

    # -- events -------------------------------------------------------------------------------------------
    def playbook_start(self, path: str, check: bool = False, plays: int = 0) -> None:
        self.started = time.monotonic()
        self.full.playbook_start(path, check)
        self.live.start()

    def play_start(self, play: PlayInfo, hosts: list[str]) -> None:
        self.play = play.name.strip()
        self.task, self.task_hosts, self.done = "", [], set()
        self.full.play_start(play, hosts)

    def task_start(self, task: TaskInfo, hosts: list[str]) -> None:
        self.task = task.title.strip()
        self.task_hosts = list(hosts)
        self.done = set()
        self.full.task_start(task, hosts)

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        self.done.add(host)
        status = status_of(result)
        if result.get("_ignored") and status in ("failed", "unreachable"):
            status = "ignored"
        if status in self.counts:
            self.counts[status] += 1
        self.full.host_result(task, host, result)

    def no_hosts_remaining(self) -> None:
        self.full.no_hosts_remaining()

    def warning(self, message: str) -> None:
        self.full.warning(message)

    def playbook_end(self, stats: dict[str, HostStats], exit_code: int) -> None:
        self.live.stop()
        self.full.playbook_end(stats, exit_code)
