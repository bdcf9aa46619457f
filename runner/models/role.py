"""Roles as the language names them: references in ``roles:`` and ``dependencies:``, ``meta/main.yml`` and
``meta/argument_specs.yml``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, GetJsonSchemaHandler, model_validator
from pydantic.json_schema import JsonSchemaValue, SkipJsonSchema
from pydantic_core import CoreSchema, PydanticCustomError

from runner.models.base import POSITION_KEY, Model, Source
from runner.models.keywords import CommonKeywords, Conditional, Delegatable
from runner.models.taskserv import TaskservMeta
from runner.models.types import AnyMapping, Bool, StringList, Text, describe, is_template, to_bool
from runner.positions import position_of


class RoleReference(CommonKeywords, Conditional, Delegatable):
    """``- common`` or ``- role: common`` (``name:`` too) with keywords; any other key is a role parameter."""

    KIND = "role"
    DERIVED = Model.DERIVED | {"params"}

    role: Text = Field(description="The role's name or path; 'name' is accepted as well")
    params: SkipJsonSchema[dict[str, Any]] = Field(
        default_factory=dict, description="Role parameters: variables above almost all others, for this role")

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        mapping = handler.resolve_ref_schema(handler(core_schema))
        mapping["additionalProperties"] = True  # role parameters
        mapping.pop("required", None)
        mapping["anyOf"] = [{"required": ["role"]}, {"required": ["name"]}]
        return {"anyOf": [{"type": "string"}, mapping]}

    @classmethod
    def _read_other_keys(cls, data: dict[Any, Any], unknown: list[Any], source: Source) -> dict[Any, Any]:
        data["params"] = {key: data.pop(key) for key in unknown}
        return data

    @classmethod
    def _normalise(cls, data: dict[Any, Any], source: Source) -> dict[Any, Any]:
        if "role" not in data and "name" in data:
            data["role"] = data.pop("name")
        if not data.get("role"):
            source.error("a role reference needs the role's name: 'role: NAME' (or 'name: NAME')")
            data["role"] = "?"
        return data


def _role_names_to_mappings(value: Any) -> list[Any]:
    """``- common`` is ``- role: common``, remembered at the place the name was written."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise PydanticCustomError("expected", "A malformed role declaration was encountered: expected a list of "
                                  "roles, got {got}", {"got": describe(value)})
    for item in value:
        if isinstance(item, str) and "," in item and not is_template(item):
            raise PydanticCustomError("expected", "Invalid old style role requirement: {name} (a role is named on "
                                      "its own; its parameters go in a mapping: '- role: NAME')", {"name": item})
    return [
        {"role": item, POSITION_KEY: position_of(value, index)} if isinstance(item, str) else item
        for index, item in enumerate(value)
    ]


RoleList = Annotated[list[RoleReference], BeforeValidator(_role_names_to_mappings)]

OptionType = Literal["str", "list", "dict", "bool", "int", "float", "path", "raw", "jsonarg", "json", "bytes", "bits"]


class SpecRules(Model):
    """Rules between options, as a module's argument spec has them."""

    mutually_exclusive: list[list[str]] = Field(default_factory=list)
    required_together: list[list[str]] = Field(default_factory=list)
    required_one_of: list[list[str]] = Field(default_factory=list)
    required_if: list[list[Any]] = Field(default_factory=list)
    required_by: dict[str, str | list[str]] = Field(default_factory=dict)

    @classmethod
    def _read_other_keys(cls, data: dict[Any, Any], unknown: list[Any], source: Source) -> dict[Any, Any]:
        # ansible-core reads the keys of an entry point and of an option it knows and ignores the rest (removed_in,
        # deprecated_aliases, a role author's own notes): a spec that runs there runs here (docs/decisions.md)
        for key in unknown:
            del data[key]
        return data


class ArgumentOption(SpecRules):
    """One option of a role's entry point, written like a module's option."""

    KIND = "argument option"

    type: OptionType = "str"
    required: Bool = False
    default: Any = None
    choices: list[Any] | None = None
    elements: OptionType | None = None
    options: dict[str, ArgumentOption] | None = None
    aliases: StringList = Field(default_factory=list)
    description: StringList = Field(default_factory=list)
    no_log: Bool = False
    apply_defaults: Bool = False
    version_added: Text | None = None

    @model_validator(mode="after")
    def _boolean_default(self) -> ArgumentOption:
        # A bool option's default is a boolean where one is expected: "default: no" means False.
        if self.type == "bool" and isinstance(self.default, str) and not is_template(self.default):
            self.default = to_bool(self.default)
        return self


class EntryPoint(SpecRules):
    """The options one entry point of a role takes: ``main`` for tasks/main.yml, ``install`` for tasks_from."""

    KIND = "entry point"

    short_description: Text | None = None
    description: StringList = Field(default_factory=list)
    author: StringList = Field(default_factory=list)
    version_added: Text | None = None
    seealso: list[Any] = Field(default_factory=list)
    options: dict[str, ArgumentOption] = Field(default_factory=dict)


EntryPoints = Annotated[dict[str, EntryPoint], BeforeValidator(lambda value: {} if value is None else value)]


class ArgumentSpecs(Model):
    """``meta/argument_specs.yml``."""

    KIND = "argument_specs"

    argument_specs: EntryPoints = Field(default_factory=dict)


class RoleMeta(Model):
    """``meta/main.yml``."""

    KIND = "role meta"

    dependencies: RoleList = Field(default_factory=list)
    allow_duplicates: Bool = False
    galaxy_info: AnyMapping = Field(default_factory=dict)
    argument_specs: EntryPoints = Field(default_factory=dict)
    collections: StringList = Field(default_factory=list, description=(
        "Collections (NS.COLL) where the role's short module names are looked up first (the play's do not apply)."))
    taskserv: TaskservMeta | None = Field(
        default=None, description="The role as a taskserv: version, requirements, conflicts, health check")

