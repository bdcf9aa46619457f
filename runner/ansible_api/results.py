"""A result as an Ansible-API module returns it, made what the callbacks and conditionals expect.

Its typed objects (dates, warnings and deprecations as summaries: ``profiles.py``) are decoded first.

ansible-core 2.19 reports an exception that escaped a module (and ``fail_json(exception=...)``) as an
``ErrorSummary``: ``{"event": {"msg", "chain", "formatted_traceback", ...}, "__ansible_type": "ErrorSummary"}``.
Its controller turns that into the result's ``msg`` (when the module gave none) and a traceback text; so does
this, so ``result.msg`` reads as under ansible-playbook and the output shows a message, not a structure.

ansible-core also removes ``_ansible_*`` keys from what a task registers, at every depth (a module that echoes
its raw arguments shows the task's only); the result's own top-level ones (``_ansible_no_log``...) are the
callbacks' to read.
"""

from __future__ import annotations

from typing import Any

from runner.ansible_api.profiles import DeprecatedTextFactory, decode_result, event_message


def _without_internal_keys(value: Any) -> Any:
    # The older module kinds strip theirs on the host (modules/_legacy_module.py), where this file is not
    # shipped: their background jobs' results never pass through here.
    if isinstance(value, dict):
        return {key: _without_internal_keys(item) for key, item in value.items()
                if not (isinstance(key, str) and key.startswith("_ansible_"))}
    if isinstance(value, list):
        return [_without_internal_keys(item) for item in value]
    return value


def normalize_result(result: dict[str, Any], deprecated_text: DeprecatedTextFactory | None = None) -> dict[str, Any]:
    """``deprecated_text``: how a text value the module deprecated is kept (``profiles.decode_result``)."""
    result = {key: value if key.startswith("_ansible_")
              else _without_internal_keys(decode_result(value, deprecated_text))
              for key, value in result.items()}
    exception = result.get("exception")
    if isinstance(exception, dict) and isinstance(exception.get("event"), dict):
        event = exception["event"]
        if not result.get("msg"):
            result["msg"] = event_message(event) or "the module failed"
        traceback = event.get("formatted_traceback")
        if traceback:
            result["exception"] = str(traceback)
        else:
            del result["exception"]
    return result
