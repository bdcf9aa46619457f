"""A variable's mapping or list read by a template, rendered item by item on access.

ansible-core 2.19 templates lazily: ``data: {date: 2024-01-02, day: "{{ data.date.day }}"}`` is valid, since
rendering ``data.day`` reads only ``data.date``, and ``{{ data.date }}`` never renders ``data.day``. A variable
holding templates in its list or mapping, read inside a template, is one of these views of its raw value. Only an
item that needs itself (``a: "{{ data.a }}"``) is a loop, found by the guards the templar keeps
(``RenderState.resolving``) for each item being rendered.

A view lives only inside the template: the templar makes the template's result plain data (``plain``) as it
leaves, and a filter, test or call is given plain data (``captured.capturing``; Jinja2's tests and the filters
that read only a length or an end take the view), so no view reaches a plugin, a task's arguments or a result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, overload

# Renders ``container[key]`` (raw data of a variable) in the variable's scope: the templar's, given by it, with
# the path of the container (``data['a']``), to which the key is added when an error names the item
ItemRenderer = Callable[[Any, Any, str], Any]


class LazyMapping(Mapping[Any, Any]):
    """A raw mapping of a variable being rendered; each item rendered when read. ``path`` names it in errors."""

    __slots__ = ("_lazy_items", "_lazy_path", "_lazy_render")

    def __init__(self, items: Mapping[Any, Any], render: ItemRenderer, path: str):
        self._lazy_items, self._lazy_render, self._lazy_path = items, render, path

    def __getitem__(self, key: Any) -> Any:
        if key not in self._lazy_items:
            raise KeyError(key)  # as a dict's: Jinja2 makes it undefined
        return self._lazy_render(self._lazy_items, key, self._lazy_path)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._lazy_items)

    def __len__(self) -> int:
        return len(self._lazy_items)

    def __contains__(self, key: object) -> bool:
        return key in self._lazy_items

    def __getattr__(self, name: str) -> Any:
        return _plain_attribute(self, dict, name)

    def __or__(self, other: Any) -> Any:
        return plain(self) | _plain_operand(other)

    def __ror__(self, other: Any) -> Any:
        return _plain_operand(other) | plain(self)

    def __repr__(self) -> str:
        return repr(plain(self))


class LazyList(Sequence[Any]):
    """A raw list of a variable being rendered; each item rendered when read."""

    __slots__ = ("_lazy_items", "_lazy_path", "_lazy_render")

    def __init__(self, items: Sequence[Any], render: ItemRenderer, path: str):
        self._lazy_items, self._lazy_render, self._lazy_path = items, render, path

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self._lazy_items))[index]]
        position = range(len(self._lazy_items))[index]  # IndexError as a list's; a negative index made positive
        return self._lazy_render(self._lazy_items, position, self._lazy_path)

    def __iter__(self) -> Iterator[Any]:
        items, render, path = self._lazy_items, self._lazy_render, self._lazy_path
        for position in range(len(items)):
            yield render(items, position, path)

    def __len__(self) -> int:
        return len(self._lazy_items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (list, LazyList)) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # as a list's

    # A template adds, repeats and orders it as the list it stands for (``{{ files + [extra] }}``)
    def __add__(self, other: Any) -> Any:
        return plain(self) + _plain_operand(other)

    def __radd__(self, other: Any) -> Any:
        return _plain_operand(other) + plain(self)

    def __mul__(self, count: Any) -> Any:
        return plain(self) * count

    __rmul__ = __mul__

    def __lt__(self, other: Any) -> Any:
        return plain(self) < _plain_operand(other)

    def __le__(self, other: Any) -> Any:
        return plain(self) <= _plain_operand(other)

    def __gt__(self, other: Any) -> Any:
        return plain(self) > _plain_operand(other)

    def __ge__(self, other: Any) -> Any:
        return plain(self) >= _plain_operand(other)

    def __getattr__(self, name: str) -> Any:
        return _plain_attribute(self, list, name)

    def __repr__(self) -> str:
        return repr(plain(self))


def _plain_operand(value: Any) -> Any:
    return plain(value) if type(value) in (LazyMapping, LazyList) else value


def _plain_attribute(view: LazyMapping | LazyList, kind: type, name: str) -> Any:
    """A method of the dict or list a view stands for (``{{ data.copy() }}``, ``{{ files.index('a') }}``), taken
    from its plain copy; any other name is not an attribute, so Jinja2 reads it as a key (``data.key1``)."""
    if name.startswith("_") or not hasattr(kind, name):
        raise AttributeError(name)
    return getattr(plain(view), name)


def is_lazy(value: Any) -> bool:
    return isinstance(value, (LazyMapping, LazyList))


def plain(value: Any) -> Any:
    """``value`` with every lazy view in it, at any depth of its dicts and lists, rendered into plain data; the
    same object when it holds none."""
    kind = type(value)  # by exact type: isinstance of these ABCs is slow, and they have no subclasses
    if kind is LazyMapping:
        return {key: plain(value[key]) for key in value}
    if kind is LazyList:
        return [plain(item) for item in value]
    if isinstance(value, dict):
        items = {key: plain(item) for key, item in value.items()}
        return value if all(items[key] is value[key] for key in value) else type(value)(items)
    if isinstance(value, list):
        copied = [plain(item) for item in value]
        return value if all(a is b for a, b in zip(copied, value, strict=True)) else type(value)(copied)
    return value
