"""A run's events given to callback plugins written against Ansible's Python API (``CallbackBase``).

Each event becomes the ``v2_*`` call ansible-core's executor makes, with ansible-core's own objects (``Play``,
``Task``, ``Host``, ``CallbackTaskResult``, ``AggregateStats``) filled from what this runner knows: the task's
name as the header shows it, its action and arguments, the host's connection; the result as the module returned
it, without the executor's ``_`` keys. A plugin that raises is a warning, as in ansible-core: callbacks never
stop a run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from runner.callbacks.base import Callback, HostStats, PlayInfo, TaskInfo
from runner.callbacks.results import (
    ASYNC_POLLS,
    CONNECTION_USED,
    INCLUDE_ACTIONS,
    RETRIED,
    public,
    report_result,
    short_module,
    status_of,
)
from runner.util.async_jobs import job_id

_RESULT_EVENTS = {"ok": "v2_runner_on_ok", "changed": "v2_runner_on_ok", "failed": "v2_runner_on_failed",
                  "skipped": "v2_runner_on_skipped", "unreachable": "v2_runner_on_unreachable"}
_ITEM_EVENTS = {"ok": "v2_runner_item_on_ok", "changed": "v2_runner_item_on_ok", "failed": "v2_runner_item_on_failed",
                "unreachable": "v2_runner_item_on_failed", "skipped": "v2_runner_item_on_skipped"}
_STAT_NAMES = ("ok", "changed", "failures", "dark", "skipped", "rescued", "ignored")
_DIFF_STATUSES = ("ok", "changed")  # ansible-core sends a result's diff only when it neither failed nor skipped


class AnsibleCallbackPlugins(Callback):
    """Callback plugin instances fed this run's events, in order (the stdout one first, as ansible-core does)."""

    def __init__(self, plugins: list[Any], *, connection_of: Callable[[str], str],
                 warn: Callable[[str], None], diff: bool = False) -> None:
        self.plugins = plugins
        self.connection_of = connection_of  # the host's connection plugin name (its ansible_connection)
        self.warn = warn
        self.diff = diff  # --diff: a task's own ``diff`` keyword overrides it
        self._hosts: dict[str, Any] = {}
        self._play: Any = None
        self._task: Any = None

    def _send(self, method: str, *args: Any, **kwargs: Any) -> None:
        for plugin in self.plugins:
            if getattr(plugin, "disabled", False):
                continue
            handler = getattr(plugin, method, None)
            if handler is None:
                continue
            try:
                handler(*args, **kwargs)
            except Exception as exc:  # ansible-core warns and goes on: a callback's failure is not the run's
                self.warn(f"Failure using method ({method}) in callback plugin ({plugin}): "
                          f"{type(exc).__name__}: {exc}")

    def _host(self, name: str) -> Any:
        from ansible.inventory.host import Host

        if name not in self._hosts:
            self._hosts[name] = Host(name)
        return self._hosts[name]

    def playbook_start(self, path: str, check: bool = False, plays: int = 0) -> None:
        from ansible.playbook import Playbook

        playbook = Playbook(loader=None)
        playbook._file_name = path
        self._send("v2_playbook_on_start", playbook)

    def play_start(self, play: PlayInfo, hosts: list[str]) -> None:
        from ansible.playbook.play import Play

        self._play = Play()
        self._play.name = play.name
        self._play.hosts = play.pattern
        self._play.strategy = play.strategy
        self._play.check_mode = play.check_mode
        self._send("v2_playbook_on_play_start", self._play)

    def task_start(self, task: TaskInfo, hosts: list[str]) -> None:
        self._task = _ansible_task(task)
        if task.is_handler:
            self._send("v2_playbook_on_handler_task_start", self._task)
        else:
            self._send("v2_playbook_on_task_start", self._task, is_conditional=False)

    def host_start(self, task: TaskInfo, host: str) -> None:
        self._send("v2_runner_on_start", self._host(host), _ansible_task(task, self.connection_of(host)))

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        if "_include" in result or short_module(task.module) in INCLUDE_ACTIONS:
            return  # an include is reported by the include event
        ansible_task = _ansible_task(task, self._connection(host, result))
        status = status_of(result)
        self._retries(host, ansible_task, task, result)
        items = result.get("results") if isinstance(result.get("results"), list) else None
        for item in items or ():
            if isinstance(item, Mapping) and status_of(item) in _ITEM_EVENTS:
                self._retries(host, ansible_task, task, item)
                item_result = self._result(host, ansible_task, task, item)
                self._diff(task, status_of(item), item, item_result)
                self._send(_ITEM_EVENTS[status_of(item)], item_result)
        callback_result = self._result(host, ansible_task, task, result)
        self._async(host, ansible_task, task, result, status, callback_result)
        if status == "failed":
            self._send("v2_runner_on_failed", callback_result, ignore_errors=bool(result.get("_ignored")))
        elif status in _RESULT_EVENTS:
            self._diff(task, status, result, callback_result)
            self._send(_RESULT_EVENTS[status], callback_result)

    def _connection(self, host: str, result: Mapping[str, Any]) -> str:
        """``task.connection`` as ansible-core sets it: the connection the task ran through (a loop's first
        item's), templated and resolved; the host's inventory connection for a task that used none."""
        raw = result.get("results")
        items: list[Any] = raw if isinstance(raw, list) else []
        for each in (result, *(item for item in items if isinstance(item, Mapping))):
            if each.get(CONNECTION_USED):
                return str(each[CONNECTION_USED])
        return self.connection_of(host)

    def _retries(self, host: str, ansible_task: Any, task: TaskInfo, result: Mapping[str, Any]) -> None:
        """``v2_runner_retry`` for each attempt that was run again (the executor keeps them on the result)."""
        for attempt in result.get(RETRIED) or ():
            self._send("v2_runner_retry", self._result(host, ansible_task, task, attempt))

    def _async(self, host: str, ansible_task: Any, task: TaskInfo, result: Mapping[str, Any], status: str,
               callback_result: Any) -> None:
        """An async task waited for: ``v2_runner_on_async_poll`` for each poll that would have found it running
        (async_status's answer then), then ``v2_runner_on_async_ok`` or ``_failed`` with the task's result."""
        polls = result.get(ASYNC_POLLS)
        if not isinstance(polls, int) or status == "skipped":
            return
        running = {"ansible_job_id": job_id(result), "started": True, "finished": False,
                   "results_file": result.get("results_file"), "changed": False, "failed": False}
        for _ in range(polls):
            self._send("v2_runner_on_async_poll", self._result(host, ansible_task, task, running))
        ended = "v2_runner_on_async_failed" if status in ("failed", "unreachable") else "v2_runner_on_async_ok"
        self._send(ended, callback_result)

    def _diff(self, task: TaskInfo, status: str, result: Mapping[str, Any], callback_result: Any) -> None:
        """``v2_on_file_diff`` before a result's own event, as ansible-core sends it: a result with a ``diff``
        that neither failed nor skipped, when the task shows diffs (its ``diff`` keyword, else --diff)."""
        wanted = task.diff if task.diff is not None else self.diff
        if wanted and status in _DIFF_STATUSES and "diff" in result:
            self._send("v2_on_file_diff", callback_result)

    def _result(self, host: str, ansible_task: Any, task: TaskInfo, result: Mapping[str, Any]) -> Any:
        from ansible.executor.task_result import CallbackTaskResult

        data = report_result(task, result) if task.no_log else public(result)
        return CallbackTaskResult(self._host(host), ansible_task, data, {})

    def include(self, path: str, hosts: list[str], item_label: str | None = None) -> None:
        from ansible.playbook.included_file import IncludedFile

        included = IncludedFile(path, {}, {}, self._task)
        for host in hosts:
            included.add_host(self._host(host))
        self._send("v2_playbook_on_include", included)

    def no_hosts_remaining(self) -> None:
        self._send("v2_playbook_on_no_hosts_remaining")

    def playbook_end(self, stats: dict[str, HostStats], exit_code: int) -> None:
        from ansible.executor.stats import AggregateStats

        aggregate = AggregateStats()
        for host, counts in stats.items():
            aggregate.processed[host] = 1
            values = (counts.ok, counts.changed, counts.failed, counts.unreachable, counts.skipped, counts.rescued,
                      counts.ignored)
            for name, value in zip(_STAT_NAMES, values, strict=True):
                if value:
                    getattr(aggregate, name)[host] = value
        self._send("v2_playbook_on_stats", aggregate)


def _ansible_task(task: TaskInfo, connection: str | None = None) -> Any:
    """ansible-core's ``Task`` for ``task``: named as the header shows it, with its action, arguments and flags."""
    from ansible.playbook.task import Task

    ansible_task = Task()
    ansible_task.name = task.name
    ansible_task.action = task.module
    ansible_task.args = dict(task.args)
    ansible_task.no_log = task.no_log
    ansible_task.check_mode = task.check_mode
    if task.diff is not None:
        ansible_task.diff = task.diff
    if connection is not None:
        ansible_task.connection = connection
    return ansible_task
