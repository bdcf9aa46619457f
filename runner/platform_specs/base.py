"""The base of every seed schema: closed mappings, typed values, the schema's checks and rules.

A seed model is a ``runner.models.base.Model``: an unknown key is an error at that key with a did-you-mean, and
``runner.models.validation.validate`` reports every problem of a file at its file:line:col. On top of that it is
strict about value types (see ``runner.platform_specs.types``), applies its ``RULES`` (checks between fields, all
of them reported, not only the first) and remembers the mapping it was read from, so reference checks made later
(``runner.platform_specs.references``) can point at the exact name that does not resolve.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import (
    ConfigDict,
    GetJsonSchemaHandler,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, InitErrorDetails

from runner.errors import SourcePosition
from runner.models.base import Model
from runner.models.validation import locate
from runner.platform_specs.checks import Rule, failure


class SeedModel(Model):
    """A mapping of one seed schema; fields without a default are required, as in the schema."""

    model_config = ConfigDict(strict=True)

    # Checks between fields, each reported at its own field; every broken one is reported.
    RULES: ClassVar[tuple[Rule, ...]] = ()

    _source: Mapping[Any, Any] | None = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _remember_source(cls, data: Any, handler: ModelWrapValidatorHandler[SeedModel]) -> SeedModel:
        model = handler(data)
        if isinstance(data, Mapping):
            model._source = data
        return model

    @model_validator(mode="after")
    def _apply_rules(self) -> SeedModel:
        broken = [rule for rule in self.RULES if not rule.holds(self)]
        if broken:
            raise ValidationError.from_exception_data(type(self).__name__, [
                InitErrorDetails(type=failure(rule.message), loc=(rule.at,), input=getattr(self, rule.at))
                for rule in broken
            ])
        return self

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        json_schema = handler(schema)
        rules = [dict(rule.schema) for rule in cls.RULES if rule.schema]
        if rules:
            handler.resolve_ref_schema(json_schema)["allOf"] = rules
        return json_schema

    def at(self, *loc: str | int, key: bool = False) -> SourcePosition | None:
        """Where the value at ``loc`` below this mapping was written (its key with ``key=True``).

        ``model.at("networks", 2)`` is the third network name of a VM; with no ``loc``, the mapping itself.
        Falls back to the mapping's own position, and is None for data that was not read from a file.
        """
        if self._source is None or not loc:
            return self.position
        return locate(self._source, loc, key=key) or self.position
