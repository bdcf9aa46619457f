"""Validating YAML data into models, with every problem reported at its file:line:col.

pydantic reports a problem by its path through the data (``(0, 'tasks', 3, 'become')``); the data came from
``runner.loader.yaml`` and knows where each key and value was written, so the path leads back to the place.
Problems found while reading mappings (``runner.models.base.report``) are gathered with pydantic's own, and all
of them are raised together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, overload

from pydantic import ConfigDict, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from runner.errors import ParseError, SourcePosition, UserError
from runner.models.types import describe
from runner.positions import position_of

T = TypeVar("T")

# pydantic error type → message; the value is described after "got".
_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "string_type": "a string",
    "bool_type": "a boolean (true/false)",
    "bool_parsing": "a boolean (true/false)",
    "dict_type": "a mapping",
    "list_type": "a list",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
}
# Errors about a key (pointed at the key); all others are about a value (pointed at the value).
_KEY_ERRORS = frozenset({"extra_forbidden"})


class ParseErrors(ParseError):
    """Several problems in the files read for one playbook or role, each with its own file:line:col."""

    def __init__(self, errors: Sequence[UserError]):
        self.errors = list(errors)
        listing = "\n".join(f"  {error.render(with_excerpt=False).removeprefix('ERROR: ')}" for error in self.errors)
        super().__init__(f"{len(self.errors)} errors:\n{listing}", self.errors[0].position)

    def render(self, *, with_excerpt: bool = True) -> str:
        return "\n".join(error.render(with_excerpt=with_excerpt) for error in self.errors)


def raise_collected(errors: Sequence[UserError]) -> None:
    """Raise nothing, the one error, or all of them in file and line order."""
    unique = list({(str(error.position), error.message): error for error in errors}.values())
    if not unique:
        return
    unique.sort(key=_order)
    if len(unique) == 1:
        raise unique[0]
    raise ParseErrors(unique)


def _order(error: UserError) -> tuple[str, int, int]:
    position = error.position or SourcePosition("")
    return position.path, position.line or 0, position.column or 0


# A model class gives an instance of it (or None on failure when ``errors`` collects the problems); an alias such
# as ``list[TaskEntry]`` or an ``Annotated`` type is not a class to a type checker, and gives Any.
@overload
def validate(target: type[T], data: Any, *, is_module: Callable[[str], bool] | None = None,
             errors: None = None, where: SourcePosition | None = None) -> T: ...
@overload
def validate(target: type[T], data: Any, *, is_module: Callable[[str], bool] | None = None,
             errors: list[UserError], where: SourcePosition | None = None) -> T | None: ...
@overload
def validate(target: Any, data: Any, *, is_module: Callable[[str], bool] | None = None,
             errors: list[UserError] | None = None, where: SourcePosition | None = None) -> Any: ...


def validate(target: Any, data: Any, *, is_module: Callable[[str], bool] | None = None,
             errors: list[UserError] | None = None, where: SourcePosition | None = None) -> Any:
    """``data`` read into ``target`` (a model or any type pydantic knows, such as ``list[TaskEntry]``).

    Every problem is raised at once as a ``ParseError`` (``ParseErrors`` when there are several). Pass
    ``errors`` to collect problems into a list instead and get None back on failure, for callers that read
    several files before reporting. ``where`` names the place of problems in data that does not know its own
    (an empty file).
    """
    collected: list[UserError] = []
    context = {"errors": collected, "is_module": is_module}
    result = None
    try:
        result = _adapter(target).validate_python(data, context=context)
    except ValidationError as exc:
        collected.extend(translate(exc, data, where))
    if errors is not None:
        errors.extend(collected)
        return None if collected else result
    raise_collected(collected)
    return result


def validate_within(target: type[T], data: Any, context: dict[str, Any] | None,
                    where: SourcePosition | None = None) -> T | None:
    """Validate a value found inside a mapping being read, reporting into the same context; None on failure.

    ``where`` is the place to name for problems in data that does not know its own position.
    """
    if not isinstance(context, dict) or context.get("errors") is None:
        return validate(target, data, is_module=(context or {}).get("is_module"))
    try:
        return _adapter(target).validate_python(data, context=context)
    except ValidationError as exc:
        context["errors"].extend(translate(exc, data, where))
        return None


_adapters: dict[Any, TypeAdapter[Any]] = {}


def _adapter(target: Any) -> TypeAdapter[Any]:
    # Building an adapter compiles a validator; keep one per type.
    key = repr(target)
    if key not in _adapters:
        _adapters[key] = TypeAdapter(target)
    return _adapters[key]


def deferred_adapter(target: Any) -> TypeAdapter[Any]:
    """The adapter ``validate`` will use for ``target``, made now but built later (``runner.util.model_cache``)."""
    adapter: TypeAdapter[Any] = TypeAdapter(target, config=ConfigDict(defer_build=True))
    _adapters[repr(target)] = adapter
    return adapter


def translate(exc: ValidationError, root: Any, where: SourcePosition | None = None) -> list[UserError]:
    return [ParseError(_message(error), locate(root, error["loc"], key=_about_key(error)) or where)
            for error in exc.errors(include_url=False)]


def _about_key(error: ErrorDetails) -> bool:
    # pydantic ends the path of a bad mapping key (a variable name) with "[key]".
    return error["type"] in _KEY_ERRORS or error["loc"][-1:] == ("[key]",)


def _message(error: ErrorDetails) -> str:
    kind = error["type"]
    if kind == "missing":
        return f"missing required keyword '{error['loc'][-1]}'"
    if kind == "literal_error":
        return f"expected {error.get('ctx', {}).get('expected')}, got {describe(error['input'])}"
    if kind in _EXPECTED:
        return f"expected {_EXPECTED[kind]}, got {describe(error['input'])}"
    return error["msg"].removeprefix("Value error, ")


def locate(root: Any, loc: tuple[int | str, ...], *, key: bool = False) -> SourcePosition | None:
    """Where the value at ``loc`` was written (its key with ``key=True``).

    Path parts that are not in the data (union tags such as ``<task>``, fields a model fills itself) are
    passed over or end the walk; then the innermost mapping or list reached is the answer.
    """
    container, parent, last = root, None, None
    for part in loc:
        if isinstance(part, str) and part.startswith("<"):
            continue
        if not _holds(container, part):
            break
        parent, last, container = container, part, container[part]
    else:
        return _written_at(parent, last, key=key) or position_of(root)
    return position_of(container) or _written_at(parent, last, key=key) or position_of(root)


def _holds(container: Any, part: int | str) -> bool:
    if isinstance(container, Mapping):
        return part in container
    return isinstance(container, list) and isinstance(part, int) and 0 <= part < len(container)


def _written_at(parent: Any, last: Any, *, key: bool) -> SourcePosition | None:
    if parent is None:
        return None
    if isinstance(parent, Mapping):
        return position_of(parent, last, value=not key)
    return position_of(parent, last)
