"""Value types of the seed schemas as YAML writes them.

The schemas are typed (KCL's ``int``, ``str``, ``bool``), so values are not converted between kinds: ``22.04``
for a string field is an error rather than a silently different ``"22.04"``. The exceptions are the ones a YAML
author expects: ``yes``/``no`` where a boolean is expected (the loader keeps them strings), ISO 8601 text or a YAML
timestamp for a time, and ``"8080"`` for a port number used as a mapping key (JSON cannot write integer keys).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema
from typing_extensions import TypeAliasType

from runner.models.types import FALSE_WORDS, TRUE_WORDS, expected, to_bool

# The words ``to_bool`` reads, in the spellings an editor should accept (JSON Schema has no case-insensitive enum).
_BOOL_SPELLINGS = list(dict.fromkeys(
    spelling for word in sorted((TRUE_WORDS | FALSE_WORDS) - {"1", "0"})
    for spelling in (word, word.capitalize(), word.upper())
))

# A named alias, so JSON Schemas hold the accepted spellings once (``$defs/YamlBool``) rather than at every field.
YamlBool = TypeAliasType("YamlBool", Annotated[
    bool,
    BeforeValidator(to_bool),
    WithJsonSchema({"anyOf": [{"type": "boolean"}, {"enum": _BOOL_SPELLINGS}]}),
])


def _timestamp(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    raise expected("an ISO 8601 timestamp such as 2025-10-06T12:00:00Z", value)


Timestamp = Annotated[datetime, BeforeValidator(_timestamp), WithJsonSchema({"type": "string", "format": "date-time"})]


def _number_key(value: Any) -> Any:
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return value


_PORT_KEY = Annotated[int, BeforeValidator(_number_key)]

# ``{host_port: container_port}``: integer keys, written as numbers in YAML and as digit strings in JSON.
PortMap = Annotated[
    dict[_PORT_KEY, int],
    WithJsonSchema({"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                    "additionalProperties": {"type": "integer"}}),
]
