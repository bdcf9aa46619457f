"""Task keywords templated per host (timeout, retries, become, delegate_to, ...): what each value means.

``omit`` means unset, as in a module's arguments and as in Ansible: ``timeout: "{{ limit | default(omit) }}"`` is
a task without a timeout, ``become_user: "{{ who | default(omit) }}"`` keeps the become user of the enclosing block,
role or play (the plan's ``keyword_fallbacks``), else the configuration's.
Conditions (when, until, changed_when, failed_when) cannot be omitted; ``Templar.evaluate_conditional`` says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from runner.plan import PlanTask
from runner.templating import OMIT, Templar, TemplateError

_BOOLEAN_WORDS = {"yes": True, "true": True, "on": True, "1": True, "no": False, "false": False, "off": False,
                  "0": False}


class TaskFailure(Exception):
    """A task cannot even start for this host (a template error in a keyword, an undefined variable)."""


def is_omitted(value: Any) -> bool:
    return isinstance(value, str) and value == OMIT


def keyword_value(templar: Templar, value: Any, fallbacks: Sequence[Any] = ()) -> Any:
    """The templated value of a keyword; when it renders to ``omit``, the first of ``fallbacks`` that does not;
    None when none is set."""
    for candidate in (value, *fallbacks):
        if candidate is None:
            continue
        rendered = templar.template(candidate)
        if not is_omitted(rendered):
            return rendered
    return None


def number_keyword(templar: Templar, value: Any, keyword: str, kind: type[int] | type[float],
                   default: Any = None, fallbacks: Sequence[Any] = ()) -> Any:
    """A numeric keyword (retries, delay, async, poll, timeout); ``default`` when unset or omitted. What is not
    a number fails the task with a message naming the keyword."""
    rendered = keyword_value(templar, value, fallbacks)
    if rendered is None:
        return default
    try:
        return kind(rendered)
    except (TypeError, ValueError):
        expected = "a whole number" if kind is int else "a number"
        raise TaskFailure(f"'{keyword}' must be {expected}, got {rendered!r}") from None


def boolean_keyword(templar: Templar, value: Any, keyword: str, default: Any = None,
                    fallbacks: Sequence[Any] = ()) -> Any:
    """A boolean keyword (become, check_mode, diff, ignore_errors ...); ``default`` when unset or omitted. Read
    as Ansible reads booleans (yes/no, true/false, on/off, 1/0) or, for a bare string, as a condition."""
    rendered = keyword_value(templar, value, fallbacks)
    if rendered is None:
        return default
    if isinstance(rendered, bool):
        return rendered
    word = str(rendered).strip().lower() if isinstance(rendered, str | int) else None
    if word in _BOOLEAN_WORDS:
        return _BOOLEAN_WORDS[word]
    if isinstance(rendered, str):
        try:
            return templar.evaluate_conditional(rendered)  # "x is defined" written without braces
        except TemplateError as exc:  # Ansible's words, then why it is not a condition either
            raise TaskFailure(f"The value {rendered!r} could not be converted to 'bool'. ({keyword}: "
                              f"{exc.message})") from None
    raise TaskFailure(f"'{keyword}' must be a boolean, got {rendered!r}")


# -- a task's keywords, as the plan holds them (with what each falls back to when omitted) -----------------------
def task_keyword(templar: Templar, node: PlanTask, name: str) -> Any:
    return keyword_value(templar, getattr(node, name), node.keyword_fallbacks.get(name, ()))


def task_number(templar: Templar, node: PlanTask, name: str, kind: type[int] | type[float], default: Any = None,
                keyword: str | None = None) -> Any:
    return number_keyword(templar, getattr(node, name), keyword or name, kind, default,
                          node.keyword_fallbacks.get(name, ()))


def task_boolean(templar: Templar, node: PlanTask, name: str, default: Any = None) -> Any:
    return boolean_keyword(templar, getattr(node, name), name, default, node.keyword_fallbacks.get(name, ()))
