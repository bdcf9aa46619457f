"""The ``taskserv:`` section of a role's ``meta/main.yml``: what the role is as an installable service.

```yaml
taskserv:
  version: "1.7.2"
  requires: [runc, "os>=1.0"]            # installed first, on the same host
  optional: [cilium]                     # installed first when the host gets it too
  conflicts: [docker]                    # never on the same host (a taskserv or what one provides)
  provides: [container-runtime]          # names other taskservs may require or conflict with
  os_support: [debian, "ubuntu>=22.04"]
  profiles:                              # variables a server or cluster picks with 'profile:'
    small: {containerd_max_concurrent_downloads: 1}
  health_check:                          # one of port, url, command
    port: 2379
    retries: 10
    interval: 3
```

Versions are strings (``1.10`` unquoted is the number 1.1 in YAML) that ``packaging`` reads (``1.7.2``,
``1.28``); constraints are written as role requirements write them (``>=1.6``, ``>=1.6,<2``, ``^1.2``, ``~1.3``;
``runner.util.versions``) and checked as ``packaging`` specifiers.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, GetJsonSchemaHandler, WithJsonSchema
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from runner.models.base import POSITION_KEY, Model, Source
from runner.models.types import Int, Text, Variables, describe, expected
from runner.positions import position_of

# packaging (runner.util.versions uses it too) is imported where a version is read: this module is imported with
# every role model, and a playbook without taskservs reads no version.

# A taskserv's name is its role's name, and the host group ``taskserv_<name>``: a name host patterns can use.
# (The models sit below the infra files' models, so this cannot import the infra's group-name type.)
NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_-]*$"
# "containerd>=1.6", "os", "etcd >=3.5, <4": a name, then an optional constraint.
_REQUIREMENT = re.compile(r"^\s*(" + NAME_PATTERN.strip("^$") + r")\s*(.*?)\s*$")
_NAME = re.compile(NAME_PATTERN)
CHECK_KINDS = ("port", "url", "command")


def _name(value: Any) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise expected("a taskserv name of letters, digits, '_' and '-'", value)
    return value


def _names(value: Any) -> list[Any]:
    """A list of names, or one name written alone."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _version(value: Any) -> str:
    from packaging.version import InvalidVersion, Version

    if isinstance(value, int | float) and not isinstance(value, bool):
        raise PydanticCustomError(
            "version_number", "expected a version written as a string (quote it: YAML reads 1.10 as the number "
            "1.1), got {got}", {"got": describe(value)})
    if not isinstance(value, str):
        raise expected("a version such as '1.7.2'", value)
    try:
        Version(value)
    except InvalidVersion:
        raise expected("a version such as '1.7.2'", value) from None
    return value


def _constraint(value: Any) -> str:
    from runner.util.versions import ConstraintError, parse_constraint

    if not isinstance(value, str):
        raise expected("a version constraint such as '>=1.6', '^1.2' or '>=1.6,<2'", value)
    try:
        parse_constraint(value)
    except ConstraintError as exc:
        raise PydanticCustomError("constraint", str(exc)) from None
    return value


def _non_negative(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise expected("a whole number, 0 or more", value)
    return value


def _positive(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise expected("a whole number, 1 or more", value)
    return value


def _statuses(value: Any) -> list[int]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(item, int) and not isinstance(item, bool) and 100 <= item < 600
                            for item in items):
        raise expected("an HTTP status code or a list of them", value)
    return items


Name = Annotated[str, BeforeValidator(_name), WithJsonSchema({"type": "string", "pattern": NAME_PATTERN})]
Names = Annotated[list[Name], BeforeValidator(_names),
                  WithJsonSchema({"anyOf": [{"type": "string", "pattern": NAME_PATTERN},
                                            {"type": "array", "items": {"type": "string", "pattern": NAME_PATTERN}}]})]
TaskservVersion = Annotated[str, BeforeValidator(_version), WithJsonSchema({"type": "string"})]
Constraint = Annotated[str, BeforeValidator(_constraint), WithJsonSchema({"type": "string"})]
NonNegative = Annotated[int, BeforeValidator(_non_negative), WithJsonSchema({"type": "integer", "minimum": 0})]
PositiveInt = Annotated[int, BeforeValidator(_positive), WithJsonSchema({"type": "integer", "minimum": 1})]
Statuses = Annotated[list[int], BeforeValidator(_statuses),
                     WithJsonSchema({"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}}]})]


class Requirement(Model):
    """A taskserv (or what one provides) with an optional version constraint: ``containerd>=1.6``, or written
    out as ``{name: containerd, version: ">=1.6"}``."""

    KIND = "requirement"

    name: Name = Field(description="A taskserv, or a name a taskserv provides")
    version: Constraint | None = Field(default=None, description="A version constraint (PEP 440: '>=1.6,<2')")

    def allows(self, version: str) -> bool:
        if self.version is None:
            return True
        from packaging.version import Version

        from runner.util.versions import parse_constraint

        # The constraint's own alternatives rather than Constraint.allows, which takes registry tags (semver)
        # only: a taskserv's version may be '1.28'.
        return any(specifiers.contains(Version(version), prereleases=True)
                   for specifiers in parse_constraint(self.version).alternatives)

    def __str__(self) -> str:
        return f"{self.name}{self.version or ''}"

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {"anyOf": [{"type": "string", "pattern": r"^\s*[A-Za-z_][A-Za-z0-9_-]*\s*([<>=!~].*)?$"},
                          handler(core_schema)]}


def _requirement_strings(value: Any) -> list[Any]:
    """``- containerd>=1.6`` is ``- {name: containerd, version: '>=1.6'}``, remembered where it was written."""
    if value is None:
        return []
    items = value if isinstance(value, list) else [value]
    read: list[Any] = []
    for index, item in enumerate(items):
        if not isinstance(item, str):
            read.append(item)
            continue
        match = _REQUIREMENT.match(item)
        if match is None:
            raise PydanticCustomError(
                "requirement", "expected a taskserv name with an optional constraint ('containerd>=1.6'), got "
                "{got}", {"got": describe(item)})
        name, constraint = match.groups()
        where = position_of(value, index) if isinstance(value, list) else position_of(value)
        read.append({"name": name, "version": constraint or None, POSITION_KEY: where})
    return read


Requirements = Annotated[list[Requirement], BeforeValidator(_requirement_strings)]


class HealthCheck(Model):
    """How to tell that a taskserv works once its role ran: a TCP port that accepts connections, a URL that
    answers with an expected status, or a command that succeeds, tried ``retries`` more times ``interval``
    seconds apart. Values may use variables (``port: "{{ redis_port }}"``)."""

    KIND = "health check"

    port: Int | None = Field(default=None, description="A TCP port that must accept connections")
    host: Text | None = Field(
        default=None, description="Where to connect for 'port', from the host itself (default: its ansible_host)")
    url: Text | None = Field(default=None, description="A URL that must answer with one of 'status'")
    status: Statuses = Field(default_factory=lambda: [200], description="Statuses 'url' may answer with")
    command: Text | None = Field(default=None, description="A command on the host that must exit 0")
    retries: NonNegative = Field(default=10, description="Tries after the first one before the check fails")
    interval: NonNegative = Field(default=3, description="Seconds between two tries")
    timeout: PositiveInt = Field(default=5, description="Seconds one try may take (port, url)")

    @classmethod
    def _normalise(cls, data: dict[Any, Any], source: Source) -> dict[Any, Any]:
        given = [kind for kind in CHECK_KINDS if data.get(kind) is not None]
        if len(given) != 1:
            found = f" (got {', '.join(repr(kind) for kind in given)})" if given else ""
            source.error(f"a health check needs exactly one of 'port', 'url' or 'command'{found}")
        elif "host" in data and given != ["port"]:
            source.error("'host' goes with 'port' only", "host")
        elif "status" in data and given != ["url"]:
            source.error("'status' goes with 'url' only", "status")
        return data

    @property
    def kind(self) -> str:
        return next(kind for kind in CHECK_KINDS if getattr(self, kind) is not None)


def _profiles(value: Any) -> Any:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise expected("a mapping of profile names to their variables", value)
    return {name: ({} if variables is None else variables) for name, variables in value.items()}


Profiles = Annotated[dict[Name, Variables], BeforeValidator(_profiles),
                     WithJsonSchema({"type": "object", "propertyNames": {"pattern": NAME_PATTERN},
                                     "additionalProperties": {"type": "object"}})]


class TaskservMeta(Model):
    """``taskserv:`` in a role's meta/main.yml. A role without it can still be named as a taskserv: it has no
    version, requirements or health check."""

    KIND = "taskserv"

    description: Text | None = Field(default=None, description="What the taskserv is")
    version: TaskservVersion | None = Field(default=None, description="The version it installs ('1.7.2')")
    requires: Requirements = Field(
        default_factory=list, description="Taskservs installed first on the same host ('containerd>=1.6')")
    optional: Requirements = Field(
        default_factory=list, description="Taskservs installed first when the host gets them too")
    conflicts: Names = Field(
        default_factory=list, description="Taskservs (or names they provide) that may not be on the same host")
    provides: Names = Field(
        default_factory=list, description="Names other taskservs may require or conflict with")
    os_support: Requirements = Field(
        default_factory=list, description="Systems it installs on: distribution or family, with an optional "
                                          "version constraint ('debian', 'ubuntu>=22.04'); empty means any")
    profiles: Profiles = Field(
        default_factory=dict, description="Variables by profile name; a server or cluster picks one with 'profile'")
    health_check: HealthCheck | None = Field(
        default=None, description="Run on each host after the role, before the taskservs that require it")
