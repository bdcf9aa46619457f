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
import jinja2.filters
import jinja2.tests

from runner.templating.lazy import LazyList, LazyMapping, plain
from runner.templating.undefined import Undefined

LAZY_TYPES = (LazyMapping, LazyList)


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


# what a plugin's arguments are looked through for, by exact type: LazyMapping and LazyList are ABCs, whose
# isinstance is slow, and none of the three has subclasses
_SPECIAL = frozenset((CapturedError, LazyMapping, LazyList))


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


def plain_arguments(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``args`` with each lazy view of a variable (``lazy.py``) made plain data: filters, tests and functions
    get lists and dicts, as ansible-core's lazy containers are."""
    for arg in args:
        if isinstance(arg, LAZY_TYPES):
            return tuple(made_plain(arg) if isinstance(arg, LAZY_TYPES) else arg for arg in args)
    return args


def made_plain(view: Any) -> Any:
    """A lazy view as data; an item of it that could not be rendered (undefined, an error) raises here, as the
    whole variable's rendering would have."""
    value = plain(view)
    _fail_if_marked(value)
    return value


def _fail_if_marked(value: Any) -> None:
    if isinstance(value, jinja2.Undefined):
        value._fail_with_undefined_error()
    elif isinstance(value, dict):
        for item in value.values():
            _fail_if_marked(item)
    elif isinstance(value, list):
        for item in value:
            _fail_if_marked(item)


def _as_given(args: tuple[Any, ...]) -> tuple[Any, ...]:
    return args


# Jinja2's tests and the filters that read only a list's length or ends, or pass a value on: given a lazy view as
# it is, so that an item may ask for its list's length without rendering itself (ansible-core 2.19 gives every
# plugin its lazy containers, which are lists and dicts).
_TAKE_LAZY_VIEWS = frozenset(
    [
        *jinja2.tests.TESTS.values(),
        *(jinja2.filters.FILTERS[name] for name in ("length", "count", "first", "last", "default", "d")),
    ]
)


def accepts_captured(function: Callable[..., Any]) -> Callable[..., Any]:
    """Mark ``function`` (a filter or test) as one given captured errors rather than passed over by them."""
    function.accepts_captured = True  # type: ignore[attr-defined]
    return function


def capturing(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a filter or test) with its errors captured and captured errors in its arguments passed on."""
    if getattr(function, "captures_errors", False):
        return function
    accepts = getattr(function, "accepts_captured", False)
    arguments = _as_given if function in _TAKE_LAZY_VIEWS else plain_arguments

    @wraps(function)  # keeps Jinja2's pass_context/pass_environment marks
    def call(*args: Any, **kwargs: Any) -> Any:
        for arg in args:  # one loop for the common case: no captured error, no lazy view among the arguments
            if type(arg) in _SPECIAL:
                if not accepts and (captured := first_captured(args, kwargs)) is not None:
                    return captured
                args = arguments(args)
                break
        if kwargs and not accepts and (captured := first_captured((), kwargs)) is not None:
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
