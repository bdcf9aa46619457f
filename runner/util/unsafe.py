"""Data that came from a host (module results, facts) or a lookup, and must never be templated again.

A fact whose value is ``{{ lookup('pipe', 'id') }}`` is text, not a template: running it would let any host run
commands on the controller. Such data is marked once, when it arrives, by wrapping it in the ``Unsafe*``
subclasses of ``str``, ``dict`` and ``list``. They behave, serialise (JSON, pickle) and compare exactly like the
plain types; the templar returns them as they are instead of rendering them, and any template that reads an
unsafe value produces an unsafe result, so ``set_fact: x="got {{ result.stdout }}"`` cannot launder it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class UnsafeText(str):
    """Text that is never rendered as a template."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return UnsafeText, (str(self),)


class TrustedText(str):
    """Text trusted as a template although a template made it or read untrusted data for it: what ansible-core
    2.19's ``ansible._protomatter.apply_trust`` gives. It stays trusted where a template's result would be
    marked unsafe, so the variable it is stored in renders it when read."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return TrustedText, (str(self),)


class DescribedText(UnsafeText):
    """Unsafe text that says where it came from in words, as ansible-core 2.19's ``Origin`` tag describes a value
    with no file position (``<environment variable 'HOME'>``)."""

    origin: str

    def __new__(cls, value: str, origin: str) -> DescribedText:
        text = super().__new__(cls, value)
        text.origin = origin
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return DescribedText, (str(self), self.origin)


class DeprecatedText(UnsafeText):
    """Unsafe text a module returned deprecated (ansible-core 2.19's ``Deprecated`` tag, ``deprecate_value``): a
    template that reads it deprecates it for its task (``deprecation``: the entry, in the result's form)."""

    deprecation: dict[str, Any]

    def __new__(cls, value: str, deprecation: dict[str, Any]) -> DeprecatedText:
        text = super().__new__(cls, value)
        text.deprecation = deprecation
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return DeprecatedText, (str(self), self.deprecation)


class UnsafeDict(dict):
    """A mapping from a host; its strings are ``UnsafeText`` and its containers are unsafe too."""

    def __reduce__(self) -> tuple[Any, ...]:
        return UnsafeDict, (dict(self),)


class UnsafeList(list):
    """A list from a host; its strings are ``UnsafeText`` and its containers are unsafe too."""

    def __reduce__(self) -> tuple[Any, ...]:
        return UnsafeList, (list(self),)


UNSAFE_TYPES = (UnsafeText, UnsafeDict, UnsafeList)


def is_unsafe(value: Any) -> bool:
    """True for data marked by ``mark_unsafe`` (only the top level is checked; marking is recursive)."""
    return isinstance(value, UNSAFE_TYPES)


def mark_unsafe(value: Any) -> Any:
    """``value`` with every string, mapping and list in it marked unsafe; other scalars are returned as they are.

    Call it once on data that arrives from a host or a lookup, before it is stored in a variable.
    """
    if isinstance(value, (*UNSAFE_TYPES, TrustedText)):
        return value
    if isinstance(value, str):
        return UnsafeText(value)
    if isinstance(value, Mapping):
        return UnsafeDict((mark_unsafe(key), mark_unsafe(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return UnsafeList(mark_unsafe(item) for item in value)
    return value


def strip_unsafe(value: Any) -> Any:
    """A plain copy (``str``, ``dict``, ``list``), for serialisers that refuse subclasses, such as PyYAML's."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, Mapping):
        return {strip_unsafe(key): strip_unsafe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [strip_unsafe(item) for item in value]
    return value
