"""The default terminal view of a playbook run, line for line as Ansible's default stdout callback prints it.

    PLAY [web] *********************************************************************

    TASK [nginx : install] *********************************************************
    changed: [web1]
    ok: [web2 -> db1]
    fatal: [web3]: FAILED! => {"changed": false, "msg": "No package matching 'ngnx'"}
    ...ignoring

    PLAY RECAP *********************************************************************
    web1                       : ok=1    changed=1    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from typing import Any, TextIO

from runner.callbacks.base import Callback, HostStats, PlayInfo, TaskInfo
from runner.callbacks.colors import paint
from runner.callbacks.custom_stats import CustomStats
from runner.callbacks.default_options import DefaultOptions
from runner.callbacks.diff import render_diff
from runner.callbacks.log_file import LogFile
from runner.callbacks.results import (
    ASYNC_POLLS,
    RETRIED,
    WARNINGS_SHOWN,
    dump,
    failure_summary,
    host_label,
    is_censored,
    is_verbose,
    item_label,
    loop_items,
    screen_result,
    short_module,
    status_of,
)
from runner.callbacks.terminal import Terminal
from runner.errors import FAILED_AT, FAILED_CAUSE, FAILED_IN, NO_TRACEBACK, RETRIES_RAN_OUT, SourcePosition
from runner.templating.deprecations import DEPRECATIONS, deprecation_text
from runner.util.async_jobs import job_id

CHECK_MODE_MARKER = " [CHECK MODE]"
DRY_RUN_BANNER = "DRY RUN"  # before and after a --check run, with check_mode_markers
RECAP_HOST_WIDTH = 26  # Ansible pads the host name to 26 columns
_WORDS = {"ok": "ok", "changed": "changed", "skipped": "skipping"}
# The recap's counters, their colour when not zero, and the HostStats field each reads.
_RECAP_COLUMNS = (("ok", "ok", "ok"), ("changed", "changed", "changed"), ("unreachable", "unreachable", "unreachable"),
                  ("failed", "failed", "failed"), ("skipped", "skipped", "skipped"), ("rescued", "ok", "rescued"),
                  ("ignored", "warning", "ignored"))


def task_path(position: str) -> str:
    """``file:line`` of a ``file:line:col`` position, as ``task path:`` shows it."""
    parts = position.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return f"{parts[0]}:{parts[1]}"
    return position


def recap_line(host: str, stats: HostStats, color: bool) -> str:
    """``host : ok=N    changed=N ...``: each count left-aligned in 4 columns, coloured when not zero."""
    if stats.failed or stats.unreachable:
        host_state = "failed"
    elif stats.changed:
        host_state = "changed"
    else:
        host_state = "ok"
    padding = " " * max(0, RECAP_HOST_WIDTH - len(host))
    counts = []
    for label, state, attribute in _RECAP_COLUMNS:
        value = getattr(stats, attribute)
        counts.append(paint(f"{label}={value:<4}", state if value else None, color))
    return f"{paint(host, host_state, color)}{padding} : {' '.join(counts)}"


class DefaultDisplay(Callback):
    """Ansible's default output. ``hide`` names result states not printed (Ansible's display_ok_hosts and
    display_skipped_hosts); with any hidden, a task's header waits for its first printed result. ``options``: the
    rest of the default callback's settings."""

    def __init__(self, *, verbosity: int = 0, diff: bool = False, nocolor: bool = False,
                 force_color: bool = False, stream: TextIO | None = None, err: TextIO | None = None,
                 columns: int | None = None, hide: Collection[str] = (), log: LogFile | None = None,
                 result_format: str = "json", pretty_results: bool | None = None, show_custom_stats: bool = False,
                 options: DefaultOptions | None = None):
        self.out = Terminal(stream, err, nocolor=nocolor, force_color=force_color, columns=columns, log=log)
        self.verbosity = verbosity
        self.diff = diff
        self.hide = frozenset(hide) - {"failed", "unreachable"}  # failures are always shown
        self.result_format = result_format
        self.pretty_results = pretty_results
        self.options = options or DefaultOptions()
        self._check = False  # a --check run: DRY RUN banners with check_mode_markers
        self._play: PlayInfo | None = None
        self._task: TaskInfo | None = None
        self._headed: TaskInfo | None = None  # the task whose header was printed last
        self._errors: set[str] = set()  # the [ERROR] texts shown: ansible-core's display shows each once per run
        self.custom_stats = CustomStats() if show_custom_stats else None

    # -- headers ------------------------------------------------------------------------------------------
    def playbook_start(self, path: str, check: bool = False, plays: int = 0) -> None:
        if self.verbosity > 1:  # then "N plays in PATH", which the engine prints (``EngineLines``)
            self.out.banner(f"PLAYBOOK: {os.path.basename(path)}")
        self._check = check
        if check and self.options.check_mode_markers:
            self.out.banner(DRY_RUN_BANNER)

    def play_start(self, play: PlayInfo, hosts: list[str]) -> None:
        self._play = play
        self._headed = None
        name = play.name.strip()
        self.out.banner((f"PLAY [{name}]" if name else "PLAY") + self._marker(play.check_mode))
        if not hosts:
            self.out.line("skipping: no hosts matched", "skipped")

    def task_start(self, task: TaskInfo, hosts: list[str]) -> None:
        self._task = task
        free = self._play is not None and self._play.strategy in ("free", "host_pinned")
        if not free and not self.hide:
            self._header(task)

    def _header(self, task: TaskInfo) -> None:
        prefix = "RUNNING HANDLER" if task.is_handler else "TASK"
        self.out.banner(f"{prefix} [{task.title.strip()}]" + self._marker(task.check_mode))
        if self.verbosity >= 2:
            self._task_path(task)
        self._headed = task

    def _marker(self, check_mode: bool) -> str:
        return CHECK_MODE_MARKER if check_mode and self.options.check_mode_markers else ""

    def _task_path(self, task: TaskInfo) -> None:
        self.out.line(f"task path: {task_path(task.position)}", "debug")

    def _ensure_header(self, task: TaskInfo) -> None:
        if self._headed != task:
            self._header(task)

    # -- results ------------------------------------------------------------------------------------------
    def meta_result(self, task: TaskInfo, host: str, message: str) -> None:
        if self.verbosity >= 2 and message:
            self._ensure_header(task)  # for the META line that follows (``EngineLines``)

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        if "_include" in result:
            return  # an include is reported by the include event, with every host it applies to
        if self.custom_stats is not None:
            self.custom_stats.record(host, result)
        status = status_of(result)
        items = loop_items(result)
        printed = [status_of(item) for item in items] if items else [status]
        if items is not None and status in ("skipped", "unreachable"):
            printed.append(status)  # the host's own line follows the items
        self._retry_lines(task, host, result)
        self._async_lines(task, host, result, status)
        if not [state for state in printed if state not in self.hide] and not self._diff_text(task, result, items):
            for item in items or ():
                self._retry_lines(task, host, item)
            return
        self._ensure_header(task)
        if items is None:
            self._single(task, host, result, status)
        else:
            self._loop(task, host, result, status, items)
        if result.get("_ignored") and status in ("failed", "unreachable"):
            self.out.line("...ignoring", "skipped")

    def _retry_lines(self, task: TaskInfo, host: str, result: Mapping[str, Any]) -> None:
        """Ansible's line for each attempt an ``until`` or ``retries`` ran again, before the result's own (the
        attempt's result too from -vvv on)."""
        for attempt in result.get(RETRIED) or ():
            self._ensure_header(task)
            left = int(attempt.get("retries", 0)) - int(attempt.get("attempts", 0))
            text = f"FAILED - RETRYING: [{host_label(host, attempt)}]: {task.name} ({left} retries left)."
            if self.verbosity > 2 or attempt.get("_ansible_verbose_always"):
                text += f"Result was: {self._dump(task, attempt)}"
            self.out.line(text, "debug")

    def _async_lines(self, task: TaskInfo, host: str, result: Mapping[str, Any], status: str) -> None:
        """An async task waited for: Ansible's line for each poll that found it running, then how it ended."""
        polls = result.get(ASYNC_POLLS)
        if not isinstance(polls, int):
            return
        self._ensure_header(task)
        jid = job_id(result)
        for _ in range(polls):
            self.out.line(f"ASYNC POLL on {host}: jid={jid} started=True finished=False", "debug")
        word = "FAILED" if status in ("failed", "unreachable") else "OK"
        self.out.line(f"ASYNC {word} on {host}: jid={jid}", "debug")

    def _single(self, task: TaskInfo, host: str, result: Mapping[str, Any], status: str) -> None:
        self._warnings(result)
        label = host_label(host, result)
        if status == "failed":
            self._failure(task, result)
            self._exception(result)
            self._fatal(task, host, result)
            return
        if status == "unreachable":
            self._failure(task, result)
            self._exception(result)
            self._failed_line(f"fatal: [{label}]: UNREACHABLE! => {self._dump(task, result)}", status)
            return
        diffed = self._print_diff(task, result)
        if status in self.hide and not diffed:
            return
        text = f"{_WORDS[status]}: [{label}]"
        if is_verbose(task, result, self.verbosity):
            text += f" => {self._dump(task, result)}"
        self.out.line(text, status)

    def _loop(self, task: TaskInfo, host: str, result: Mapping[str, Any], status: str,
              items: list[Mapping[str, Any]]) -> None:
        for item in items:
            self._item(task, host, item)
        self._warnings(result)  # the loop's own (its items' gathered, shown with them already) after its items
        if status == "failed" and short_module(task.module) == "debug":
            # ansible-core's default view strips a debug result to its message before it looks for the items, so
            # a failed debug loop ends with the loop's own line ("One or more items failed"); other loops do not
            self._fatal(task, host, result)
        if status == "skipped" and status not in self.hide:
            text = f"skipping: [{host}]"
            if is_verbose(task, result, self.verbosity):
                text += f" => {self._dump(task, result)}"
            self.out.line(text, "skipped")
        elif status == "unreachable":
            self._failed_line(f"fatal: [{host_label(host, result)}]: UNREACHABLE! => {self._dump(task, result)}",
                              "unreachable")

    def _item(self, task: TaskInfo, host: str, item: Mapping[str, Any]) -> None:
        self._retry_lines(task, host, item)
        self._warnings(item)
        status = status_of(item)
        label = host_label(host, item)
        shown = item_label(task, item)
        if status in ("failed", "unreachable"):
            if status == "failed":
                self._failure(task, item)
            self._exception(item)
            self._failed_line(f"failed: [{label}] (item={shown}) => {self._dump(task, item)}", status)
            return
        diffed = self._print_diff(task, item)
        if status in self.hide and not diffed:
            return
        # Ansible leaves a space after a skipped item's label; kept so output compares equal.
        text = f"skipping: [{label}] => (item={shown}) " if status == "skipped" else \
            f"{_WORDS[status]}: [{label}] => (item={shown})"
        if is_verbose(task, item, self.verbosity):
            text += f" => {self._dump(task, item)}"
        self.out.line(text, status)

    def _fatal(self, task: TaskInfo, host: str, result: Mapping[str, Any]) -> None:
        """A failed task's ``fatal:`` line, after its ``task path:`` with show_task_path_on_failure (below -vv,
        whose header shows it already)."""
        if self.verbosity < 2 and self.options.show_task_path_on_failure:
            self._task_path(task)
        self._failed_line(f"fatal: [{host_label(host, result)}]: FAILED! => {self._dump(task, result)}", "failed")

    def _failed_line(self, text: str, state: str) -> None:
        """A failure's or unreachable host's text: on stderr with display_failed_stderr."""
        self.out.line(text, state, stderr=self.options.display_failed_stderr)

    def _dump(self, task: TaskInfo, result: Mapping[str, Any]) -> str:
        shown = screen_result(task, result, self.verbosity)
        indent = self.options.result_indentation
        if self.result_format == "yaml":
            from runner.callbacks.result_yaml import yaml_result

            return yaml_result(shown, lossy=self.pretty_results is not False,
                               indent=None if self.pretty_results is False else indent,
                               width=self.options.yaml_width(self.out.columns))
        pretty = self.pretty_results is not False and (
            self.pretty_results is True or self.verbosity > 2 or bool(result.get("_ansible_verbose_always")))
        return dump(shown, pretty=pretty, indent=indent)

    def _warnings(self, result: Mapping[str, Any]) -> None:
        shown = result.get(WARNINGS_SHOWN) or {}
        for warning in result.get("warnings") or ():
            self.out.warning(str(shown.get(warning, warning)) if isinstance(warning, str) else str(warning))
        # shown when the run's deprecation_warnings is on, as ansible-core's controller shows them; the result
        # keeps them either way
        for deprecation in (result.get("deprecations") or ()) if DEPRECATIONS.enabled else ():
            self.out.deprecation(deprecation_text(deprecation))

    def _failure(self, task: TaskInfo, result: Mapping[str, Any]) -> None:
        """ansible-core's ``[ERROR]:`` lines before a failure (a failed loop item's too): what failed, then where
        the task is; a text already shown is not shown again (two items or hosts failing alike). An include that
        could not be read was reported when it happened, with where the error is; a failure only the retries made
        has no error (ansible-core 2.21). An unreachable host has one too, its connection's error."""
        if is_censored(task, result) or result.get(FAILED_IN) in ("include", RETRIES_RAN_OUT):
            return
        position = SourcePosition.parse(str(result.get(FAILED_AT) or task.position))
        origin = f"\n{position.origin()}\n" if position is not None and position.line is not None else ""
        cause = result.get(FAILED_CAUSE)
        explained = f"\n<<< caused by >>>\n\n{cause}\n" if isinstance(cause, str) else ""
        text = f"[ERROR]: {failure_summary(result)}{origin}{explained}"
        if text not in self._errors:
            self._errors.add(text)
            self._failed_line(text, "failed")

    def _exception(self, result: Mapping[str, Any]) -> None:
        exception = str(result.get("exception") or "").strip()
        if not exception or exception == NO_TRACEBACK or "censored" in result:
            return
        if self.verbosity < 3:
            self._failed_line("An exception occurred during task execution. To see the full traceback, use -vvv. "
                              f"The error was: {exception.splitlines()[-1]}", "failed")
        else:
            self._failed_line(f"The full traceback is:\n{exception}", "failed")

    # -- diffs --------------------------------------------------------------------------------------------
    def _diff_wanted(self, task: TaskInfo) -> bool:
        return task.diff if task.diff is not None else self.diff

    def _diff_text(self, task: TaskInfo, result: Mapping[str, Any],
                   items: list[Mapping[str, Any]] | None = None) -> str:
        """The rendered diff of a changed result (every changed item of a loop), '' when none is wanted."""
        if not self._diff_wanted(task) or is_censored(task, result):
            return ""
        if items is not None:
            return "".join(self._diff_text(task, item) for item in items)
        if not result.get("changed") or not result.get("diff"):
            return ""
        return render_diff(result["diff"], color=self.out.color)

    def _print_diff(self, task: TaskInfo, result: Mapping[str, Any]) -> bool:
        """Print the result's diff (Ansible prints it before the result's line); True when there was one."""
        text = self._diff_text(task, result)
        if text:
            self.out.line(text[:-1] if text.endswith("\n") else text)
        return bool(text)

    # -- the rest -----------------------------------------------------------------------------------------
    def include(self, path: str, hosts: list[str], item_label: str | None = None) -> None:
        if self._task is not None:
            self._ensure_header(self._task)  # the include's own result shows it, display_included_hosts or not
        if not self.options.display_included_hosts:
            return
        text = f"included: {path} for {', '.join(hosts)}"
        if item_label is not None:
            text += f" => (item={item_label})"
        self.out.line(text, "included")

    def no_hosts_remaining(self) -> None:
        self.out.banner("NO MORE HOSTS LEFT")

    def warning(self, message: str) -> None:
        self.out.warning(message)

    def playbook_end(self, stats: dict[str, HostStats], exit_code: int) -> None:
        self.out.banner("PLAY RECAP")
        for host in sorted(stats):
            self.out.line(recap_line(host, stats[host], self.out.color))
        self.out.line()
        if self.custom_stats is not None and self.custom_stats.custom:
            self.out.banner("CUSTOM STATS: ")
            for line in self.custom_stats.lines():
                self.out.line(line)
        if self._check and self.options.check_mode_markers:
            self.out.banner(DRY_RUN_BANNER)
