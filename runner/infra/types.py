"""Value types of infra files: names that become hostnames or inventory groups, sizes, loopback addresses.

Infra files are not templated, so these types are strict: a size is an integer, not a Jinja2 expression.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

from runner.models.types import expected

# A DNS name: letters, digits, '-' and '.', starting and ending with a letter or digit.
HOSTNAME_PATTERN = r"^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$"
# An inventory group name that host patterns can name without quoting (no ':', ',', '&', '!', '*').
GROUP_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_-]*$"
# Local servers live on 127.0.0.N; .1 is the machine's own loopback address.
LOOPBACK_PATTERN = r"^127\.0\.0\.(?:[2-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-4])$"


def _matching(pattern: str, what: str) -> Any:
    compiled = re.compile(pattern)

    def check(value: Any) -> str:
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not compiled.match(value):
            raise expected(what, value)
        return value

    return check


def _positive(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise expected("a positive whole number", value)
    return value


def _port(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 65536:
        raise expected("a port number from 1 to 65535", value)
    return value


def _names(value: Any) -> list[Any]:
    """A list of names, or one name written alone."""
    if value is None:
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        return [value]
    raise expected("a list of names", value)


def _string_mapping(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise expected("a mapping of names to text", value)
    for key, item in value.items():
        if not isinstance(item, str | int | float) or isinstance(item, bool):
            raise PydanticCustomError("tag_value", "the value of '{key}' must be text", {"key": str(key)})
    return {str(key): str(item) for key, item in value.items()}


Hostname = Annotated[
    str,
    BeforeValidator(_matching(HOSTNAME_PATTERN, "a hostname (letters, digits, '-' and '.')")),
    WithJsonSchema({"type": "string", "pattern": HOSTNAME_PATTERN}),
]
GroupName = Annotated[
    str,
    BeforeValidator(_matching(GROUP_NAME_PATTERN, "a name of letters, digits, '_' and '-' (it becomes a group)")),
    WithJsonSchema({"type": "string", "pattern": GROUP_NAME_PATTERN}),
]
LoopbackAddress = Annotated[
    str,
    BeforeValidator(_matching(LOOPBACK_PATTERN, "an address from 127.0.0.2 to 127.0.0.254")),
    WithJsonSchema({"type": "string", "pattern": LOOPBACK_PATTERN}),
]
PositiveInt = Annotated[int, BeforeValidator(_positive), WithJsonSchema({"type": "integer", "minimum": 1})]
Port = Annotated[int, BeforeValidator(_port), WithJsonSchema({"type": "integer", "minimum": 1, "maximum": 65535})]
GroupNames = Annotated[
    list[GroupName],
    BeforeValidator(_names),
    WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}),
]
HostnameList = Annotated[
    list[Hostname],
    BeforeValidator(_names),
    WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}),
]
StringMapping = Annotated[
    dict[str, str], BeforeValidator(_string_mapping),
    WithJsonSchema({"type": "object", "additionalProperties": {"type": ["string", "number"]}}),
]
