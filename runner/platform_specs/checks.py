"""The checks of the seed schemas, each failing with the schema's own message, word for word.

A check on one field is an ``Annotated`` marker (``Annotated[int, between(1, 32, "CPU must be 1-32")]``): pydantic
runs it at that field, so the problem is reported at the field's file:line:col and the other fields are still
read. A check between fields is a ``Rule`` of the model (``runner.platform_specs.base.SeedModel.RULES``), pointed at the
field the rule is about. Both state themselves in the JSON Schema too (``minimum``, ``pattern``, ``if``/``then``),
so an editor flags what validation would.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import (
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

SEED_CHECK = "seed_check"


def failure(message: str) -> PydanticCustomError:
    """The error for a failed check; the message is passed as data, so braces in it are never a template."""
    return PydanticCustomError(SEED_CHECK, "{message}", {"message": message})


@dataclass(eq=False)
class Check:
    """A condition on one value; ``schema`` holds the JSON Schema keywords that say the same."""

    holds: Callable[[Any], bool]
    message: str
    schema: Mapping[str, Any] = field(default_factory=dict)

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self._validate, handler(source))

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        json_schema = handler(schema)
        json_schema.update(self.schema)
        return json_schema

    def _validate(self, value: Any) -> Any:
        if not self.holds(value):
            raise failure(self.message)
        return value


@dataclass(eq=False)
class Rule:
    """A condition between fields of one mapping, reported at the field ``at`` (where the user looks first)."""

    at: str
    holds: Callable[[Any], bool]
    message: str
    schema: Mapping[str, Any] | None = None  # usually an if/then stating the rule for editors


def non_empty(message: str) -> Check:
    """``len(x) > 0`` on a string."""
    return Check(lambda value: len(value) > 0, message, {"minLength": 1})


def non_empty_list(message: str) -> Check:
    """``len(x) > 0`` on a list."""
    return Check(lambda value: len(value) > 0, message, {"minItems": 1})


def at_most_chars(limit: int, message: str) -> Check:
    return Check(lambda value: len(value) <= limit, message, {"maxLength": limit})


def exact_chars(length: int, message: str) -> Check:
    return Check(lambda value: len(value) == length, message, {"minLength": length, "maxLength": length})


def at_most_items(limit: int, message: str) -> Check:
    return Check(lambda value: len(value) <= limit, message, {"maxItems": limit})


def at_least(low: float, message: str) -> Check:
    return Check(lambda value: value >= low, message, {"minimum": low})


def above(low: float, message: str) -> Check:
    return Check(lambda value: value > low, message, {"exclusiveMinimum": low})


def between(low: float, high: float, message: str) -> Check:
    """``low <= x <= high``."""
    return Check(lambda value: low <= value <= high, message, {"minimum": low, "maximum": high})


def matches(pattern: str, message: str) -> Check:
    """``regex.match(x, pattern)`` as KCL has it: anchored at the start; a final ``$`` is the very end."""
    # Python's "$" also matches before a final newline; "\Z" is what the KCL pattern means.
    compiled = re.compile(pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern)
    return Check(lambda value: compiled.match(value) is not None, message, {"pattern": pattern})


def satisfies(test: Callable[[Any], bool], message: str, **schema: Any) -> Check:
    """Any other condition on one value (a CIDR, a cron line), with the JSON Schema keywords that describe it."""
    return Check(test, message, schema)


def reworded(message: str) -> WrapValidator:
    """A value its type rejects is reported with the schema's own message (``policy in [...]``, "Invalid pull
    policy"), for checks that restate what the type already says."""

    def _validate(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise failure(message) from None

    return WrapValidator(_validate)
