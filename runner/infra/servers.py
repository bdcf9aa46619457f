"""Servers as an infra file declares them: settings every provider shares, and each provider's own.

A server is read by its ``provider`` (a discriminated union), so a setting the provider does not have (``plan``
on a local server) is an error at its key with a did-you-mean. Every setting is optional in the file because
``defaults`` may supply it; what a provider cannot do without is listed in ``REQUIRED`` and checked after
defaults are merged (``runner.infra.merge``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, GetJsonSchemaHandler, ValidationInfo, WithJsonSchema
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from runner.errors import ParseError, did_you_mean
from runner.infra.types import (
    GROUP_NAME_PATTERN,
    GroupName,
    GroupNames,
    Hostname,
    LoopbackAddress,
    Port,
    PositiveInt,
    StringMapping,
)
from runner.models.base import POSITION_KEY, Model, Source, report
from runner.models.types import Text, Variables, expected
from runner.positions import position_of

PROVIDERS = ("local", "aws", "upcloud")
Network = Literal["public", "utility"]
NETWORKS: tuple[Network, ...] = ("public", "utility")  # an UpCloud server's interfaces unless told


class TaskservRef(Model):
    """A taskserv a server or cluster carries: ``- redis`` or ``- {name: redis, profile: ha, vars: {...}}``."""

    KIND = "taskserv"

    name: GroupName = Field(description="The taskserv (a role in roles/ with a taskserv section)")
    profile: Text = Field(default="default", description="Which of the taskserv's profiles to apply")
    vars: Variables = Field(default_factory=dict, description="Variables for this taskserv on these servers")

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {"anyOf": [{"type": "string", "pattern": GROUP_NAME_PATTERN}, handler(core_schema)]}


def _taskserv_names_to_mappings(value: Any) -> list[Any]:
    """``- redis`` is ``- name: redis``, remembered at the place the name was written."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise expected("a list of taskservs", value)
    return [{"name": item, POSITION_KEY: position_of(value, index)} if isinstance(item, str) else item
            for index, item in enumerate(value)]


TaskservList = Annotated[list[TaskservRef], BeforeValidator(_taskserv_names_to_mappings)]


class ServerSettings(Model):
    """Settings every provider's servers have; also what ``defaults`` sets for every server of the infra."""

    KIND = "server settings"
    # Other spellings of a keyword, as the platform's and the cloud's own words: spelling → keyword.
    ALTERNATES: ClassVar[dict[str, str]] = {"groups": "labels"}

    labels: GroupNames = Field(default_factory=list,
                               description="Inventory groups the server is in ('groups' is accepted as well)")
    user: Text | None = Field(default=None, description="The user to log in as (ansible_user)")
    ssh_port: Port = Field(default=22, description="The SSH port (ansible_port)")
    taskservs: TaskservList = Field(default_factory=list, description="Taskservs installed on the server")
    vars: Variables = Field(default_factory=dict, description="Host variables of the server")

    @classmethod
    def known_words(cls) -> set[str]:
        return super().known_words() | set(cls.ALTERNATES)

    @classmethod
    def _read_other_keys(cls, data: dict[Any, Any], unknown: list[Any], source: Source) -> dict[Any, Any]:
        for spelling in [key for key in unknown if key in cls.ALTERNATES]:
            unknown.remove(spelling)
            keyword = cls.ALTERNATES[spelling]
            if keyword in data:
                source.error(f"give either '{keyword}' or '{spelling}' (they are one setting)", spelling)
                del data[spelling]
            else:
                data[keyword] = data.pop(spelling)
        return super()._read_other_keys(data, unknown, source)

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema = handler(core_schema)
        properties = handler.resolve_ref_schema(schema).get("properties", {})
        for spelling, keyword in cls.ALTERNATES.items():
            if keyword in properties:
                properties[spelling] = properties[keyword]
        return schema


def _golden_ref(value: Any) -> Any:
    """A local server starts from its machine's root or from a golden image; nothing else names a root."""
    if isinstance(value, str) and not re.match(GOLDEN_PATTERN, value):
        raise expected("golden:NAME or golden:NAME@VERSION (a local server starts from a golden image)", value)
    return value


GOLDEN_PATTERN = r"^golden:[A-Za-z0-9][A-Za-z0-9_.-]*(@[A-Za-z0-9][A-Za-z0-9_.-]*)?$"
GoldenImageRef = Annotated[Text, BeforeValidator(_golden_ref), WithJsonSchema({"type": "string",
                                                                               "pattern": GOLDEN_PATTERN})]


class LocalSettings(ServerSettings):
    """A local server: a test host on this machine (namespaces, overlay root, sshd on its own 127.0.0.N)."""

    KIND = "local server"
    REQUIRED: ClassVar[tuple[str, ...]] = ()

    user: Text | None = Field(default="root", description="The user to log in as (ansible_user)")
    address: LoopbackAddress | None = Field(
        default=None, description="Its address, 127.0.0.2 to 127.0.0.254; the first free one when not given")
    image: GoldenImageRef | None = Field(
        default=None, description="golden:NAME or golden:NAME@VERSION: start from a golden image's captured root "
                                  "(default: the machine's own root)")


class CloudSettings(ServerSettings):
    """What cloud servers share: an image, a size, a disk and the key pair to log in with."""

    image: Text | None = Field(default=None, description="The image to start from")
    disk_gb: PositiveInt | None = Field(default=None, description="Size of the system disk in GB")
    ssh_key: Text | None = Field(
        default=None, description="Private key file to log in with; its '.pub' file is installed on the server")


class AwsSettings(CloudSettings):
    """An EC2 instance."""

    KIND = "aws server"
    ALTERNATES: ClassVar[dict[str, str]] = {**ServerSettings.ALTERNATES, "plan": "instance_type"}
    REQUIRED: ClassVar[tuple[str, ...]] = ("image",)

    image: Text | None = Field(default=None, description="The AMI id (ami-...)")
    region: Text | None = Field(default=None, description="The region; else the provider's or AWS's default")
    zone: Text | None = Field(default=None, description="The availability zone (eu-west-1a)")
    instance_type: Text = Field(default="t3.micro", description="The instance type ('plan' is accepted as well)")
    key_name: Text | None = Field(
        default=None, description="The EC2 key pair; imported from ssh_key's public key when it does not exist")
    security_groups: GroupNames = Field(
        default_factory=list, description="Security group names; one allowing SSH is made when none is given")
    subnet: Text | None = Field(default=None, description="The subnet id; else the VPC's default subnet")
    network: Text | None = Field(default=None, description="The VPC id; else the region's default VPC")
    tags: StringMapping = Field(default_factory=dict, description="Tags besides Name")


class UpcloudSettings(CloudSettings):
    """An UpCloud server."""

    KIND = "upcloud server"
    REQUIRED: ClassVar[tuple[str, ...]] = ("zone", "image", "ssh_key")

    image: Text | None = Field(default=None, description="The OS template's UUID or title")
    zone: Text | None = Field(default=None, description="The zone (de-fra1, nl-ams1, us-nyc1 ...)")
    plan: Text = Field(default="1xCPU-2GB", description="The plan (1xCPU-2GB, 2xCPU-4GB ...)")
    user: Text | None = Field(default="root", description="The login user created on the server")
    disk_gb: PositiveInt | None = Field(default=25, description="Size of the system disk in GB")
    network: list[Network] = Field(default_factory=lambda: list(NETWORKS),
                                   description="Network interfaces the server gets")


SETTINGS: dict[str, type[ServerSettings]] = {"local": LocalSettings, "aws": AwsSettings, "upcloud": UpcloudSettings}


class _Server(Model):
    hostname: Hostname = Field(description="The server's name: its hostname and its inventory host name")


class LocalServer(LocalSettings, _Server):
    provider: Literal["local"]


class AwsServer(AwsSettings, _Server):
    provider: Literal["aws"]


class UpcloudServer(UpcloudSettings, _Server):
    provider: Literal["upcloud"]


AnyServer = LocalServer | AwsServer | UpcloudServer
SERVERS: dict[str, type[AnyServer]] = {"local": LocalServer, "aws": AwsServer, "upcloud": UpcloudServer}


def missing_settings(server: AnyServer) -> list[str]:
    """Settings the server's provider cannot do without that are still unset (after defaults are merged)."""
    return [setting for setting in type(server).REQUIRED if getattr(server, setting) is None]


def known_provider(value: Any, info: ValidationInfo) -> bool:
    """Whether a server names a provider this runner has; if not, that is reported at the value."""
    if not isinstance(value, Mapping) or value.get("provider") in PROVIDERS:
        return True
    if "provider" not in value:
        report(info, ParseError(f"a server needs 'provider': one of {', '.join(PROVIDERS)}", position_of(value)))
    else:
        name = str(value["provider"])
        report(info, ParseError(f"unknown provider '{name}': expected one of {', '.join(PROVIDERS)}",
                                position_of(value, "provider", value=True), hint=did_you_mean(name, PROVIDERS)))
    return False


Server = Annotated[AnyServer, Field(discriminator="provider")]
