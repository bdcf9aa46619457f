"""Warnings and deprecations an action plugin makes through ansible-core's ``Display`` (or
``ansible.module_utils.common.warnings``, which goes there on the controller) while it runs, captured into the
task's result as ansible-core's executor captures them (``DeferredWarningContext``), rather than printed by a
``Display`` of the worker.

Captured ones come first, then those of the plugin's result, each once, as ansible-core orders them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from runner.ansible_api.deprecations import deprecation_entry


class CapturedWarnings:
    def __init__(self, context: Any = None):
        self.context = context  # ansible-core's DeferredWarningContext, None before 2.19

    def joined(self, result: dict[str, Any]) -> dict[str, Any]:
        """``result`` with the captured warnings and deprecations before its own."""
        if self.context is None:
            return result
        from ansible.module_utils._internal._event_utils import format_event_brief_message

        warnings = [format_event_brief_message(summary.event) for summary in self.context.get_warnings()]
        deprecations = [
            _deprecation(summary, format_event_brief_message(summary.event))
            for summary in self.context.get_deprecation_warnings()
        ]
        for key, captured in (("warnings", warnings), ("deprecations", deprecations)):
            own = result.get(key)
            merged = (
                [*captured, *(entry for entry in own if entry not in captured)]
                if isinstance(own, list)
                else captured or own
            )
            if merged:
                result[key] = merged
        return result


def _deprecation(summary: Any, message: str) -> dict[str, Any]:
    deprecator = summary.deprecator
    info = None
    if deprecator is not None:
        kind = deprecator.type
        info = {"resolved_name": deprecator.resolved_name, "type": getattr(kind, "value", kind)}
    return deprecation_entry(message, version=summary.version, date=summary.date, deprecator=info)


@contextmanager
def captured_warnings(variables: dict[str, Any]) -> Iterator[CapturedWarnings]:
    """What ansible-core's Display is given to show while the block runs, kept for the result."""
    try:
        from ansible._internal._display_utils import DeferredWarningContext
    except ImportError:  # ansible-core before 2.19 shows them itself
        yield CapturedWarnings()
        return
    with DeferredWarningContext(variables=variables) as context:
        yield CapturedWarnings(context)
