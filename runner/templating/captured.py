"""Errors of filters, tests and calls captured as values, as ansible-core 2.19's ``CapturedExceptionMarker``.

In ansible-core 2.19 a filter, test or function that raises does not stop the template at once: its result is a
marker holding the error, which the next filter, test or call passes on without running, and which raises the
error wherever it is used (printed, compared, iterated, a template's result). So the error reaches the task as
it was raised, while a plugin that accepts markers (``ansible._protomatter.dump_object``, ``true_type``) can look
at it. A variable whose template fails (a syntax error) reads as one too.

An undefined value a filter trips on stays undefined (``missing | upper | default('x')`` is ``x``, as in 2.19);
a captured error is never taken for undefined (``default`` passes it on, ``is defined`` raises it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, NoReturn

import jinja2

from runner.templating.undefined import Undefined


class CapturedError(Undefined):
    """An error a filter, test or call raised, kept as a value; any use raises it again."""

    __slots__ = ()

    @property
    def error(self) -> BaseException:
        error: BaseException = self._undefined_obj
        return error

    def _fail_with_undefined_error(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise self.error


# Jinja2 binds every use of an undefined (``__str__``, ``__eq__``, ``__iter__``, ...) to its raising method itself,
# so each is bound here to the one that raises the captured error.
for _base in (jinja2.Undefined, jinja2.StrictUndefined):
    for _name, _value in list(vars(_base).items()):
        if _value is jinja2.Undefined._fail_with_undefined_error and _name != "_fail_with_undefined_error":
            setattr(CapturedError, _name, CapturedError._fail_with_undefined_error)


def capture(error: Exception) -> Any:
    """The value a failing plugin gives: undefined for an undefined it tripped on, else a ``CapturedError``."""
    if isinstance(error, jinja2.UndefinedError):
        return Undefined(hint=error.message)
    return CapturedError(hint=getattr(error, "message", None) or str(error), obj=error)


def first_captured(args: tuple[Any, ...], kwargs: dict[str, Any]) -> CapturedError | None:
    for arg in args:
        if isinstance(arg, CapturedError):
            return arg
    if kwargs:
        for arg in kwargs.values():
            if isinstance(arg, CapturedError):
                return arg
    return None


def accepts_captured(function: Callable[..., Any]) -> Callable[..., Any]:
    """Mark ``function`` (a filter or test) as one given captured errors rather than passed over by them."""
    function.accepts_captured = True  # type: ignore[attr-defined]
    return function


def capturing(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a filter or test) with its errors captured and captured errors in its arguments passed on."""
    if getattr(function, "captures_errors", False):
        return function
    accepts = getattr(function, "accepts_captured", False)

    @wraps(function)  # keeps Jinja2's pass_context/pass_environment marks
    def call(*args: Any, **kwargs: Any) -> Any:
        if not accepts and (captured := first_captured(args, kwargs)) is not None:
            return captured
        try:
            return function(*args, **kwargs)
        except RecursionError:
            raise
        except Exception as error:
            return capture(error)

    call.captures_errors = True  # type: ignore[attr-defined]
    return call


__all__ = ["CapturedError", "accepts_captured", "capture", "capturing", "first_captured"]
