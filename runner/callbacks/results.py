"""What a result looks like once the executor's bookkeeping is taken out: shared by every view and report.

The executor adds keys starting with ``_`` (``_status``, ``_ignored``, ``_delegated_to``, ``_label``,
``_duration``, ``_vars`` ...); nobody outside the runner should see them, as Ansible hides its ``_ansible_*`` keys.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from runner.callbacks.base import TaskInfo
from runner.errors import FAILED_IN, FAILED_WHY, PLAYBOOK_ERROR

NO_LOG_MESSAGE = "the output has been hidden due to the fact that 'no_log: true' was specified for this result"
NO_LOG_ITEM_LABEL = "(censored due to no_log)"
# Kept in a censored result, as Ansible keeps them: they say how the task went without saying what it saw.
_KEPT_WHEN_CENSORED = ("attempts", "changed", "retries")
_DEBUG_KEYS = {"msg", "exception", "warnings", "deprecations"}
_DEBUG_HIDDEN = ("changed", "failed", "skipped", "invocation", "skip_reason", "ansible_loop_var", "ansible_index_var",
                 "ansible_loop")
INCLUDE_ACTIONS = {"include_tasks", "include_role"}
# An async task waited for: how many polls would have found it running. The agent waits for the module itself
# (no polling round trips); the default view shows Ansible's ASYNC POLL / ASYNC OK lines from it when it ends.
ASYNC_POLLS = "_async_polls"
# A task run again (``until``, ``retries``): the result of each attempt that was followed by another, as it stood
# when the next began (with ``attempts`` and ``retries`` as ansible-core has them), for the views to report.
RETRIED = "_retried"
# The longer text a warning of ``warnings`` is shown with, by its text: ansible-core adds a help text (a link to its
# documentation) or an error's cause on the display, not in the result.
WARNINGS_SHOWN = "_warnings_shown"
# The connection plugin a task ran through, its resolved full name (ansible.builtin.ssh), for callback plugins'
# ``task.connection``.
CONNECTION_USED = "_connection"


def short_module(name: str) -> str:
    """``ansible.builtin.debug`` → ``debug``: views compare plain module names."""
    for prefix in ("ansible.builtin.", "ansible.legacy."):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def status_of(result: Mapping[str, Any]) -> str:
    """The executor's ``_status``, or the same judgement made from the result's own keys."""
    status = result.get("_status")
    if isinstance(status, str):
        return status
    for key in ("unreachable", "failed", "skipped", "changed"):
        if result.get(key):
            return key
    return "ok"


def public(result: Mapping[str, Any]) -> dict[str, Any]:
    """The result without the executor's ``_`` keys, loop items included."""
    clean = {k: v for k, v in result.items() if not k.startswith("_")}
    if isinstance(clean.get("results"), list):
        clean["results"] = [public(item) if isinstance(item, Mapping) else item for item in clean["results"]]
    return clean


def is_censored(task: TaskInfo, result: Mapping[str, Any]) -> bool:
    return task.no_log or "censored" in result or bool(result.get("_ansible_no_log"))


def censored(result: Mapping[str, Any]) -> dict[str, Any]:
    shown: dict[str, Any] = {"censored": NO_LOG_MESSAGE}
    shown.update({key: result[key] for key in _KEPT_WHEN_CENSORED if key in result})
    return shown


def report_result(task: TaskInfo, result: Mapping[str, Any]) -> dict[str, Any]:
    """A result as reports store it: public keys only, censored under no_log (loop items too)."""
    if not is_censored(task, result):
        return public(result)
    kept = {k: v for k, v in result.items() if k in ("failed", "skipped", "unreachable")}
    kept.update(censored(result))
    if isinstance(result.get("results"), list):
        kept["results"] = [report_result(task, item) for item in result["results"] if isinstance(item, Mapping)]
    return kept


def screen_result(task: TaskInfo, result: Mapping[str, Any], verbosity: int) -> dict[str, Any]:
    """A result as the terminal prints it after ``=>``, following Ansible's rules.

    The event already says failed or skipped, so those keys go; warnings and exceptions are printed on their own
    lines; ``invocation`` and ``diff`` only show from -vvv; debug shows just what it was asked to show.
    """
    if is_censored(task, result):
        return censored(result)
    shown = public(result)
    shown.pop("results", None)  # loop items are printed one line each
    for key in ("failed", "skipped", "exception", "warnings", "deprecations"):
        shown.pop(key, None)
    if verbosity < 3:
        shown.pop("invocation", None)
        shown.pop("diff", None)
    if short_module(task.module) == "debug":
        shown = debug_view(shown)
    return shown


def debug_view(shown: Mapping[str, Any]) -> dict[str, Any]:
    """What a debug result shows: the message (or the variable asked for), none of the task's bookkeeping."""
    if "msg" in shown:
        return {k: v for k, v in shown.items() if k in _DEBUG_KEYS}
    return {k: v for k, v in shown.items() if k not in _DEBUG_HIDDEN}


def is_verbose(task: TaskInfo, result: Mapping[str, Any], verbosity: int) -> bool:
    """Whether ``=> {result}`` follows an ok/changed/skipped line: from -v, and always for a result that asks it
    (debug's messages; not a debug task skipped by its condition), unless the result overrides it."""
    return ((verbosity > 0 or result.get("_ansible_verbose_always") is True)
            and result.get("_ansible_verbose_override", False) is False)


def dump(result: Mapping[str, Any], *, pretty: bool, indent: int = 4) -> str:
    """JSON as Ansible prints results: sorted keys, one line, or indented by ``indent`` when ``pretty``."""
    return json.dumps(result, indent=indent if pretty else None, sort_keys=True, ensure_ascii=False, default=str)


def host_label(host: str, result: Mapping[str, Any]) -> str:
    """``web1``, or ``web1 -> db1`` when the task was delegated to another host."""
    delegated = result.get("_delegated_to")
    return f"{host} -> {delegated}" if delegated and delegated != host else host


def item_label(task: TaskInfo, item: Mapping[str, Any]) -> str:
    """What ``(item=...)`` shows: loop_control.label, else the loop variable's value (as Python prints it)."""
    if is_censored(task, item):
        return NO_LOG_ITEM_LABEL
    if "_label" in item:
        return str(item["_label"])
    return str(item.get(item.get("ansible_loop_var", "item")))


def loop_items(result: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    """The per-item results of a loop, or None for a task without a loop."""
    items = result.get("results")
    if not isinstance(items, list):
        return None
    return [item for item in items if isinstance(item, Mapping)]


def failure_message(result: Mapping[str, Any]) -> str:
    """One line that says why a task failed: its msg, the failing items' msgs, or its return code."""
    if "censored" in result:
        return NO_LOG_MESSAGE
    messages = [str(item.get("msg")) for item in loop_items(result) or () if item.get("failed") and item.get("msg")]
    if messages:
        return "; ".join(dict.fromkeys(messages))
    if result.get("msg"):
        return str(result["msg"])
    if result.get("exception"):
        return str(result["exception"]).strip().splitlines()[-1]
    if "rc" in result:
        return f"rc={result['rc']}"
    return "failed"


def failure_summary(result: Mapping[str, Any]) -> str:
    """ansible-core's one-line account of a failure, which its ``[ERROR]:`` line shows: the task's own error
    as it is, else what failed (the action on the controller, or the module on the host) and why: the condition
    that decided it (2.21's words), else its message."""
    if isinstance(result.get("break_when_result"), str):  # its error, in ansible-core 2.21's words
        return f"A 'break_when' expression failed: {result['break_when_result']}"
    message = str(result.get(FAILED_WHY) or result.get("msg") or "").strip()
    source = result.get(FAILED_IN)
    if source == PLAYBOOK_ERROR:
        return message
    if source == "task" or result.get("unreachable"):  # the task's own error, or its connection's
        return message if message.startswith("Task failed") else f"Task failed: {message}"
    what = "Action failed" if source == "action" else "Module failed"
    return f"Task failed: {what}: {message}" if message else f"Task failed: {what}."
