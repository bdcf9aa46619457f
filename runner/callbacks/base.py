"""The events a playbook run reports, and the counts the recap prints.

The executor calls these methods on every configured callback (terminal view, JSON report, JUnit report ...);
a callback overrides the ones it cares about. Results are plain dicts as modules return them, plus the keys
the executor adds (``_status`` one of ok/changed/failed/skipped/unreachable, ``_ignored``, ``_delegated_to``,
``_facts`` the facts the task set by host, ``item`` and ``results`` for loops, ``_duration`` in seconds,
``_retried`` the attempts an ``until`` or ``retries`` ran again, ``_async_polls`` the polls that found an async
task running).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from runner.secrets.censor import censor


@dataclass
class TaskInfo:
    """What a callback needs to know of a task: enough to print a header and name a report case."""

    name: str  # the task's name, or "module" when it has none (as Ansible prints it)
    module: str
    position: str  # file:line:col of the task in its source
    role: str | None = None
    is_handler: bool = False
    args: dict[str, Any] = field(default_factory=dict)
    no_log: bool = False
    check_mode: bool = False
    diff: bool | None = None  # the task's own ``diff`` keyword; None follows --diff
    uid: str | None = None  # tells apart two tasks from the same file:line (a file both imported and included)

    @property
    def title(self) -> str:
        return f"{self.role} : {self.name}" if self.role else self.name


@dataclass
class PlayInfo:
    name: str
    pattern: str
    position: str
    check_mode: bool = False
    strategy: str = "linear"  # under "free" a task header is printed with each host's first result


@dataclass
class HostStats:
    ok: int = 0
    changed: int = 0
    unreachable: int = 0
    failed: int = 0
    skipped: int = 0
    rescued: int = 0
    ignored: int = 0

    def count(self, status: str, *, ignored: bool = False, changed: bool = False) -> None:
        if ignored:
            # An ignored failure or unreachable result counts as ok too (and changed when it changed), as in
            # Ansible's recap.
            self.ignored += 1
            self.ok += 1
            self.changed += int(changed)
            return
        if status == "changed":
            self.ok += 1  # Ansible counts a changed task as ok too
            self.changed += 1
        elif status in ("ok", "failed", "skipped", "unreachable", "rescued"):
            setattr(self, status, getattr(self, status) + 1)


class Callback:
    """Base class: every event is a no-op."""

    def playbook_start(self, path: str, check: bool = False, plays: int = 0) -> None:
        """The run starts: ``plays`` is how many plays the playbook has, imported ones included."""

    def play_start(self, play: PlayInfo, hosts: list[str]) -> None: ...

    def task_start(self, task: TaskInfo, hosts: list[str]) -> None: ...

    def host_start(self, task: TaskInfo, host: str) -> None:
        """``host`` starts running ``task`` (ansible-core's ``v2_runner_on_start``): each host the task runs on,
        its result following; none for a meta task, and for a ``run_once`` task only the host that runs it."""

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        """One host finished one task (all its loop items); ``result['_status']`` says how it went."""

    def meta_result(self, task: TaskInfo, host: str, message: str) -> None:
        """A meta task ran on ``host``: ``message`` says what it did or, skipped, why not (ansible-core's words)."""

    def include(self, path: str, hosts: list[str], item_label: str | None = None) -> None:
        """A dynamic include (include_tasks / include_role) was resolved to ``path`` for ``hosts``."""

    def host_values(self, task: TaskInfo | None, host: str, values: dict[str, dict[str, Any]]) -> None:
        """Variables ``task`` set for ``host``, by kind: ``vars`` (register, set_fact) and ``include_vars``;
        ``task`` None: restored at the start of a resumed run."""

    def play_hosts_done(self, hosts: list[str]) -> None:
        """These hosts finished the current play: their batch ended and they neither failed nor were unreachable."""

    def no_hosts_remaining(self) -> None: ...

    def warning(self, message: str) -> None: ...

    def playbook_end(self, stats: dict[str, HostStats], exit_code: int) -> None:
        """The run is over: print the recap, write the report."""


class Callbacks(Callback):
    """Several callbacks called as one, in order."""

    def __init__(self, callbacks: list[Callback]):
        self.callbacks = callbacks

    def __getattribute__(self, name: str) -> Any:
        if name.startswith("_") or name == "callbacks" or not hasattr(Callback, name):
            return object.__getattribute__(self, name)
        members = object.__getattribute__(self, "callbacks")

        def fan_out(*args: Any, **kwargs: Any) -> None:
            # Every view, report and log sees events with decrypted secrets masked (runner.secrets.censor).
            args = censor(args)
            kwargs = censor(kwargs)
            for callback in members:
                getattr(callback, name)(*args, **kwargs)

        return fan_out
