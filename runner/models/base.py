"""The base of every language model: it remembers where its mapping was written and rejects unknown keywords.

Models are validated from the data ``runner.loader.yaml`` returns (mappings that know their file, line and
column). A problem found while reading a mapping (an unknown keyword, two modules in one task) is reported
through the validation context at the exact key, and reading goes on, so one run lists every mistake in a file;
``runner.models.validation`` gathers these reports with pydantic's own errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator
from pydantic.json_schema import SkipJsonSchema

from runner.errors import ParseError, SourcePosition, UserError, did_you_mean
from runner.models.types import expected
from runner.positions import position_of

# A mapping built by a validator (``- common`` in ``roles:`` becomes ``{"role": "common"}``) carries the position of
# what was written under this key; no YAML key can be equal to it. Typed Any: it sits among the string keys of
# mappings that are otherwise ``dict[str, Any]``.
POSITION_KEY: Any = object()


def report(info: ValidationInfo | None, error: UserError) -> None:
    """Record a problem and go on reading, or raise it when validation runs outside ``validate``."""
    errors = info.context.get("errors") if info is not None and isinstance(info.context, dict) else None
    if errors is None:
        raise error
    errors.append(error)


@dataclass
class Source:
    """The mapping being read, to point at its keys and values when reporting a problem."""

    data: Mapping[Any, Any]
    info: ValidationInfo | None
    position: SourcePosition | None

    def at(self, key: Any = None, *, value: bool = False) -> SourcePosition | None:
        return position_of(self.data, key, value=value) or self.position

    def error(self, message: str, key: Any = None, *, value: bool = False, hint: str | None = None) -> None:
        report(self.info, ParseError(message, self.at(key, value=value), hint=hint))

    @property
    def context(self) -> dict[str, Any]:
        return self.info.context if self.info is not None and isinstance(self.info.context, dict) else {}


class Model(BaseModel):
    """A mapping of keywords; field aliases are the keywords as written in YAML.

    No model builds its validator when its class is made (pydantic's ``defer_build``): the ones every run reads
    are completed together by ``runner.util.model_cache`` (from the user's cache when it holds them), the rest
    (a role's meta, a taskserv's section, infra files) on first use, so a run that reads none of them does not
    pay for building them.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)

    KIND: ClassVar[str] = "mapping"  # how errors name this mapping: "a task", "a play", ... without the article
    # The class Ansible reads this mapping into, for a model whose unknown keys Ansible reports in its own words
    # ("'x' is not a valid attribute for a Play"), which scripts and playbooks match on
    ANSIBLE_CLASS: ClassVar[str | None] = None
    # Fields filled by the model itself, never written by the user.
    DERIVED: ClassVar[frozenset[str]] = frozenset({"position"})
    # Keywords Ansible has that this runner does not run yet: keyword → why, reported where they are written.
    UNSUPPORTED: ClassVar[dict[str, str]] = {}

    position: SkipJsonSchema[SourcePosition | None] = Field(default=None, exclude=True, repr=False)

    @classmethod
    def keywords(cls) -> dict[str, str]:
        """Every keyword this mapping accepts, as written in YAML → the field that holds it."""
        return _keyword_table(cls)

    @classmethod
    def known_words(cls) -> set[str]:
        """Keywords for did-you-mean hints, the unsupported ones included."""
        return set(cls.keywords()) | set(cls.UNSUPPORTED)

    @model_validator(mode="before")
    @classmethod
    def _read_mapping(cls, data: Any, info: ValidationInfo) -> Any:
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            raise expected(f"a mapping of {cls.KIND} keywords", data)
        plain = dict(data)
        injected = plain.pop(POSITION_KEY, None)
        source = Source(data, info, injected or position_of(data))
        for key in [key for key in plain if key in cls.UNSUPPORTED]:
            source.error(cls.UNSUPPORTED[key], key)
            del plain[key]
        keywords = cls.keywords()
        unknown = [key for key in plain if key not in keywords]
        plain = cls._read_other_keys(plain, unknown, source)
        plain = cls._normalise(plain, source)
        plain["position"] = source.position
        return plain

    @classmethod
    def _read_other_keys(cls, data: dict[Any, Any], unknown: list[Any], source: Source) -> dict[Any, Any]:
        """Keys that are not keywords; by default each one is an error with a did-you-mean."""
        for key in unknown:
            source.error(cls.unknown_message(key), key, hint=did_you_mean(str(key), cls.known_words()))
            del data[key]
        return data

    @classmethod
    def unknown_message(cls, key: Any) -> str:
        if cls.ANSIBLE_CLASS is not None:
            return f"'{key}' is not a valid attribute for a {cls.ANSIBLE_CLASS}"
        return f"'{key}' is not a valid {cls.KIND} keyword"

    @classmethod
    def _normalise(cls, data: dict[Any, Any], source: Source) -> dict[Any, Any]:
        """Reshape what was written into the fields (a hook for subclasses)."""
        return data


@cache
def _keyword_table(model: type[Model]) -> dict[str, str]:
    return {
        (field.alias or name): name
        for name, field in model.model_fields.items()
        if name not in model.DERIVED
    }

