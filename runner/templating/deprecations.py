"""Deprecations that templating meets while a task runs, for the task's result (``deprecations``), as ansible-core
2.19 gathers what it deprecates during a task into the task's result and shows it before the result's line.

A task's run collects them (``collecting``); what templating deprecates meanwhile (``deprecate``) joins that
task's list only: the collector is a context variable, and each host's task runs in an asyncio task of its own.
They reach the task's result whatever the settings say; the run's ``deprecation_warnings``
(``DEPRECATIONS.enabled``, set once by the command before its workers start) decides only whether the output
shows them, as in ansible-core 2.19 and 2.21 (where a task's ``ansible_deprecation_warnings`` changes neither).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from runner.ansible_api.deprecations import deprecation_entry, deprecation_message

CONDITIONAL_AS_TEMPLATE = "Conditionals should not be surrounded by templating delimiters such as {{ }} or {% %}."


class DeprecationSettings:
    """The run's deprecation_warnings, set once by the command before its workers start."""

    enabled: bool = True


DEPRECATIONS = DeprecationSettings()

_collected: ContextVar[list[dict[str, Any]] | None] = ContextVar("task_deprecations", default=None)


def deprecate(message: str, version: str) -> None:
    """Record that the running task used a feature ansible-core removes in ``version``; once per message."""
    found = _collected.get()
    if found is not None and not any(entry["msg"] == message for entry in found):
        found.append(deprecation_entry(message, version=version,
                                       deprecator={"resolved_name": "ansible.builtin", "type": None}))


def deprecate_entry(entry: dict[str, Any]) -> None:
    """Record a deprecation of the running task given whole (a deprecated value's); once per task."""
    found = _collected.get()
    if found is not None and entry not in found:
        found.append(entry)


@contextmanager
def collecting() -> Iterator[list[dict[str, Any]]]:
    """The deprecations met until the block ends."""
    found: list[dict[str, Any]] = []
    token = _collected.set(found)
    try:
        yield found
    finally:
        _collected.reset(token)


def deprecation_text(entry: Any) -> str:
    """A result's deprecation as ansible-core words it after ``[DEPRECATION WARNING]:``."""
    return deprecation_message(entry)


def with_deprecations(result: dict[str, Any], found: list[dict[str, Any]]) -> dict[str, Any]:
    """``result`` with the task's deprecations added to any it reports itself."""
    if found:
        result["deprecations"] = [*(result.get("deprecations") or ()), *found]
    return result
