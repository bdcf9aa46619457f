"""``ansible._protomatter``: ansible-core 2.19's internal filters and tests on data tags, over this runner's marks.

ansible-core 2.19 tags each value with where it came from (``Origin``), whether its text may be rendered as a
template (``TrustedAsTemplate``) and whether it was vault-encrypted (``VaultedValue``). This runner carries the
same facts as marks on the values themselves, and these plugins read them under ansible-core's names:

- ``TrustedAsTemplate``: plain text; text from a host, a lookup or ``!unsafe`` (``UnsafeText``) and a secret's
  plaintext are not trusted. A string constant written in a template counts as trusted here (ansible-core tags
  it with nothing): a value does not say whether it was a constant.
- ``VaultedValue``: an inline ``!vault`` value, or its plaintext once read.
- ``Origin``: the file position of a vault value and of a mapping or list read from YAML, or a lookup's words
  for where its text came from (``env``: ``<environment variable 'HOME'>``).

See docs/decisions.md ("Data tags as marks on values").
"""

from __future__ import annotations

import ast
import dataclasses
import enum
from collections.abc import Callable
from typing import Any

import jinja2

from runner.positions import position_of
from runner.secrets.encrypted import VaultedText, VaultEncryptedValue
from runner.templating.captured import CapturedError, accepts_captured
from runner.templating.errors import TemplateError
from runner.util.unsafe import UNSAFE_TYPES, DescribedText, TrustedText

NAMESPACE = "ansible._protomatter."
KNOWN_TAGS = ("Deprecated", "Origin", "SourceWasEncrypted", "TrustedAsTemplate", "VaultedValue")


def origin(value: Any) -> str | None:
    """Where ``value`` was written (``path:line:col``), when it says so; None otherwise."""
    if isinstance(value, VaultEncryptedValue):
        return value.origin
    if isinstance(value, DescribedText):
        return value.origin
    if isinstance(value, (dict, list)) and getattr(value, "source_path", None):
        return str(position_of(value))
    return None


def tag_names(value: Any) -> list[str]:
    """The names of the 2.19 tags ``value`` would carry, sorted as ansible-core lists them."""
    names = []
    if origin(value) is not None:
        names.append("Origin")
    if isinstance(value, str) and not isinstance(value, (*UNSAFE_TYPES, VaultedText)):
        names.append("TrustedAsTemplate")
    if isinstance(value, (VaultEncryptedValue, VaultedText)):
        names.append("VaultedValue")
    return sorted(names)


def tagged(value: Any) -> bool:
    return bool(tag_names(value))


def tagged_with(value: Any, tag_name: str) -> bool:
    if tag_name not in KNOWN_TAGS:
        raise TemplateError(f"Unknown tag name {tag_name!r}.")
    return tag_name in tag_names(value)


def apply_trust(value: Any) -> Any:
    """Text trusted as a template from now on, even where a template's result is not; other values as they
    are."""
    return TrustedText(value) if isinstance(value, str) and not isinstance(value, VaultedText) else value


def true_type(value: Any) -> str:
    if isinstance(value, CapturedError):
        return "CapturedExceptionMarker"
    return "UndefinedMarker" if isinstance(value, jinja2.Undefined) else type(value).__name__


def python_literal_eval(value: Any, ignore_errors: bool = False) -> Any:
    """``value`` read as a Python literal (``'[1, 2]'`` is a list)."""
    try:
        if not isinstance(value, str):
            raise TemplateError("The `value` to eval must be a string.")
        return ast.literal_eval(value)
    except Exception:
        if ignore_errors:
            return value
        raise


def dump_object(value: Any) -> Any:
    """Objects JSON does not know as plain data (a dataclass as a dict, a captured error as its ``exception``
    with its ``message``); anything else as it is."""
    if isinstance(value, CapturedError):
        error = value.error
        return {"exception": {"message": getattr(error, "message", None) or str(error),
                              "type": type(error).__name__}}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value, dict_factory=_plain_dict)
    return value


def _plain_dict(items: list[tuple[str, Any]]) -> dict[str, Any]:
    """A dataclass's fields as JSON knows them: an enum as its value (``PluginType.MODULE`` is ``'module'``)."""
    return {key: value.value if isinstance(value, enum.Enum) else value for key, value in items}


def unmask(value: Any, type_names: Any) -> Any:
    """ansible-core's switch for its own result types' transformation; this runner has none, so only the
    argument is checked."""
    if not isinstance(type_names, (str, list)):
        raise TemplateError(f"The 'type_names' argument must be of type 'str' or 'list', not "
                            f"'{type(type_names).__name__}'.")
    names = [type_names] if isinstance(type_names, str) else type_names
    unknown = [str(name) for name in names if name not in _TRANSFORMED_TYPES]
    if unknown:
        raise TemplateError(f"Unknown type name(s): {', '.join(unknown)}")
    return value


_TRANSFORMED_TYPES = ("DeprecationSummary", "EncryptedString", "ErrorSummary", "PluginInfo", "WarningSummary")


def _passing_undefined(function: Callable[..., Any]) -> Callable[..., Any]:
    """As ansible-core's: an undefined input is the result, so ``missing | f is undefined`` holds."""
    def wrapper(value: Any, *args: Any, **kwargs: Any) -> Any:
        passed = isinstance(value, jinja2.Undefined) and not isinstance(value, CapturedError)
        return value if passed else function(value, *args, **kwargs)
    wrapper.__name__ = function.__name__
    wrapper.__doc__ = function.__doc__
    return wrapper


FILTERS: dict[str, Callable[..., Any]] = {
    NAMESPACE + "origin": _passing_undefined(origin),
    NAMESPACE + "tag_names": _passing_undefined(tag_names),
    NAMESPACE + "apply_trust": _passing_undefined(apply_trust),
    NAMESPACE + "true_type": accepts_captured(true_type),
    NAMESPACE + "python_literal_eval": _passing_undefined(python_literal_eval),
    NAMESPACE + "dump_object": accepts_captured(_passing_undefined(dump_object)),
    NAMESPACE + "unmask": _passing_undefined(unmask),
}

TESTS: dict[str, Callable[..., bool]] = {
    NAMESPACE + "tagged": tagged,
    NAMESPACE + "tagged_with": tagged_with,
}
