"""``changed_when`` and ``failed_when`` applied to a task's result, as ansible-core 2.21 applies them.

Where 2.19 and 2.21 differ, this follows 2.21 (docs/decisions.md):

- ``changed_when`` records its value in ``changed_when_result``; when it cannot be evaluated, the task fails with
  the error there, a failure it replaces kept in ``changed_when_suppressed_exception``, and ``failed_when`` is not
  evaluated.
- Any ``failed_when`` over a failed result keeps that failure in ``failed_when_suppressed_exception``, whatever
  the expression gives; when it gives true (or cannot be evaluated) the failure is the expression's own.
- A failure a condition decided says so on the ``[ERROR]:`` line ("A 'failed_when' expression evaluated to
  'True'."), as a failure of the module when the module had failed, else of the action; the result's ``msg``
  says it too when the module gave none of its own.
- Retries that run out (an ``until`` that never held) fail the task only when no ``failed_when`` was evaluated:
  one that was decides, as 2.21's result reads ``failed`` from ``failed_when_result`` first. 2.19 failed the
  registered result anyway (docs/decisions.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from runner.errors import FAILED_IN, FAILED_WHY, NO_TRACEBACK, RETRIES_RAN_OUT
from runner.templating import TemplateError

# What a runner-made ``msg`` starts with: one made from an error, never a module's own words (ansible-core makes
# ``msg`` from the failure's exception only when the module gave none, and makes it again when a condition
# replaces that exception).
_MADE_MESSAGE = "Task failed: "

Evaluate = Callable[[Sequence[Any]], bool]


def apply_result_conditions(
    result: dict[str, Any],
    evaluate: Evaluate,
    changed_when: Sequence[Any] | None,
    failed_when: Sequence[Any] | None,
    describe: Callable[[TemplateError], str],
) -> None:
    """Apply the task's conditions to ``result`` in place. ``evaluate`` reads a condition list against the
    result; ``describe`` says why one could not be evaluated (the ``<keyword>_result`` text)."""
    if changed_when is not None:
        try:
            changed = evaluate(changed_when)
        except TemplateError as error:
            _suppress(result, "changed_when")
            reason = describe(error)
            result["changed_when_result"] = reason
            _fail(result, f"A 'changed_when' expression failed: {reason}")
            return
        result["changed"] = result["changed_when_result"] = changed
    if failed_when is None:
        return
    _suppress(result, "failed_when")
    try:
        failed = evaluate(failed_when)
    except TemplateError as error:
        reason = describe(error)
        result["failed_when_result"] = reason
        _fail(result, f"A 'failed_when' expression failed: {reason}")
        return
    result["failed_when_result"] = failed
    if failed:
        _fail(result, "A 'failed_when' expression evaluated to 'True'.")
    else:
        result["failed"] = False
        result.pop(FAILED_IN, None)


def retries_ran_out(result: dict[str, Any]) -> None:
    """End ``result``, the last attempt's, of a task whose ``until`` never held, as ansible-core 2.21 ends it: a
    ``failed_when`` evaluated on it (``failed_when_result``, a bool or its error) has decided already, so the
    task goes on when it said false; otherwise the task fails. A failure only the retries made has no
    ``exception`` (2.21 normalizes the result before marking it), so it gets no ``[ERROR]:`` line."""
    if "failed_when_result" in result:
        return
    if not result.get("failed"):
        result[FAILED_IN] = RETRIES_RAN_OUT
    result["failed"] = True


def condition_error_text(message: str) -> str:
    """``<keyword>_result`` for a condition that raised: ansible-core's "Error rendering expression: ..." as it
    is, any other template error said to be the conditional's."""
    if message.startswith("Error rendering expression"):
        return message
    return f"Error while evaluating conditional: {message}"


def _suppress(result: dict[str, Any], keyword: str) -> None:
    """Keep the failure a condition is about to decide over (a failed result has an exception, shown or not)."""
    if result.get("failed") or "exception" in result:
        result[f"{keyword}_suppressed_exception"] = result.pop("exception", NO_TRACEBACK)


def _fail(result: dict[str, Any], why: str) -> None:
    """Fail ``result`` for ``why``: of the module when the module had failed, else of the action."""
    if not result.get("failed"):
        result[FAILED_IN] = "action"
    result["failed"] = True
    result[FAILED_WHY] = why
    message = result.get("msg")
    if not message or (isinstance(message, str) and message.startswith(_MADE_MESSAGE)):
        what = "Action failed" if result.get(FAILED_IN) == "action" else "Module failed"
        result["msg"] = f"Task failed: {what}: {why}"
