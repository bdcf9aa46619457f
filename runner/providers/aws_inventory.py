"""The ``aws_ec2`` inventory source: EC2 instances (by region and filters) as hosts, grouped by keys.

```yaml
plugin: amazon.aws.aws_ec2           # or aws_ec2
regions: [eu-west-1]                 # default: the AWS default region
filters: {"tag:env": prod, instance-state-name: running}
hostnames: [tag:Name, instance-id]   # the first one an instance has names it (this is also the default)
keyed_groups:
  - {key: tags.role, prefix: role}   # role_web ...
  - {key: placement.availability_zone}
endpoint_url: http://127.0.0.1:5000  # another EC2 endpoint; profile: for an AWS profile
```

As Ansible's plugin: every host is in group ``aws_ec2``; host variables are the instance's description in
snake_case with ``tags`` as a mapping; a keyed group is ``prefix`` + ``separator`` + value (the separator leads
even without a prefix unless ``leading_separator: false``), characters other than letters, digits and ``_``
become ``_``; a mapping value gives one group per ``key_value``. Differences: ``key`` is a dotted path into the
host variables, not a Jinja2 expression; ``compose`` and ``groups`` are not supported; hosts are named
``tag:Name`` first by default; ``ansible_host`` is the public address, else the private one; terminated
instances are never listed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from runner.errors import SourcePosition, UserError
from runner.infra.provider_settings import AwsProviderSettings
from runner.models.base import Model
from runner.models.types import Bool, StringList, Text
from runner.models.validation import validate

if TYPE_CHECKING:
    from runner.inventory.inventory import Inventory

GROUP = "aws_ec2"
# hostnames entry → the instance's field
HOSTNAME_FIELDS = {"instance-id": "InstanceId", "private-ip-address": "PrivateIpAddress",
                   "ip-address": "PublicIpAddress", "dns-name": "PublicDnsName",
                   "private-dns-name": "PrivateDnsName"}
_NOT_IN_GROUP_NAMES = re.compile(r"[^A-Za-z0-9_]")
_CREDENTIALS = "credentials are not read from inventory files: use the environment, a profile or an instance role"


class KeyedGroup(Model):
    KIND = "keyed_groups entry"

    key: Text = Field(description="A dotted path into the host variables: tags.role, instance_type ...")
    prefix: Text = ""
    separator: Text = "_"
    default_value: Text | None = Field(default=None, description="The value for hosts that lack the key")
    leading_separator: Bool = True
    parent_group: Text | None = None


class AwsEc2Source(Model):
    KIND = "aws_ec2 inventory"
    UNSUPPORTED = {
        "compose": "'compose' (host variables from Jinja2 expressions) is not supported in aws_ec2 sources",
        "groups": "'groups' (groups from Jinja2 conditions) is not supported in aws_ec2 sources: use keyed_groups",
        "include_filters": "'include_filters' is not supported: use filters",
        "exclude_filters": "'exclude_filters' is not supported: use filters",
        "aws_access_key": _CREDENTIALS, "aws_secret_key": _CREDENTIALS, "access_key": _CREDENTIALS,
        "secret_key": _CREDENTIALS, "session_token": _CREDENTIALS,
    }

    plugin: Literal["aws_ec2", "amazon.aws.aws_ec2"]
    regions: StringList = Field(default_factory=list, description="Regions to list (default: the AWS default)")
    filters: dict[str, Any] = Field(default_factory=dict, description="EC2 filters: name → value or values")
    hostnames: StringList = Field(default_factory=lambda: ["tag:Name", "instance-id"])
    keyed_groups: list[KeyedGroup] = Field(default_factory=list)
    profile: Text | None = None
    endpoint_url: Text | None = None
    strict: Bool = False

    @field_validator("hostnames")
    @classmethod
    def _known_hostnames(cls, value: list[str]) -> list[str]:
        for entry in value:
            if not entry.startswith("tag:") and entry not in HOSTNAME_FIELDS:
                raise ValueError(f"unknown hostnames entry '{entry}': expected tag:NAME or one of "
                                 + ", ".join(HOSTNAME_FIELDS))
        return value


def add_aws_ec2_source(inventory: Inventory, path: Path, data: Mapping[str, Any]) -> None:
    from runner.providers.aws import AwsProvider

    source = validate(AwsEc2Source, data, where=SourcePosition(str(path), 1, 1))
    settings = AwsProviderSettings(profile=source.profile, endpoint_url=source.endpoint_url)
    filters = [{"Name": str(name), "Values": [str(item) for item in (value if isinstance(value, list) else [value])]}
               for name, value in source.filters.items()]
    with inventory.batch():
        inventory.add_group(GROUP)
        for region in source.regions or [None]:
            try:
                provider = AwsProvider(settings, region)
                instances = provider.describe(filters)
            except UserError as error:
                raise type(error)(f"aws_ec2 inventory: {error.message}", SourcePosition(str(path))) from None
            for instance in instances:
                name = _hostname(instance, source.hostnames)
                if name is None:
                    continue
                variables = host_variables(instance, provider.region)
                inventory.add_host(name, [GROUP], variables)
                for keyed in source.keyed_groups:
                    for group in keyed_group_names(keyed, variables):
                        inventory.add_host(name, [group])
                        if keyed.parent_group:
                            inventory.add_child(keyed.parent_group, group)


def host_variables(instance: Mapping[str, Any], region: str) -> dict[str, Any]:
    """The instance as Ansible's aws_ec2 shows it: snake_case keys, tags as a mapping, and ansible_host."""
    variables = _snake(dict(instance))
    variables["tags"] = {tag["Key"]: tag["Value"] for tag in instance.get("Tags", [])}
    variables.setdefault("placement", {})["region"] = region
    address = instance.get("PublicIpAddress") or instance.get("PrivateIpAddress")
    if address:
        variables["ansible_host"] = address
    return variables


def keyed_group_names(keyed: KeyedGroup, variables: Mapping[str, Any]) -> list[str]:
    value: Any = variables
    for part in keyed.key.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    if value in (None, "", [], {}):
        value = keyed.default_value
    if value is None:
        return []
    if isinstance(value, Mapping):
        values = [f"{key}{keyed.separator}{item}" for key, item in value.items()]
    elif isinstance(value, list):
        values = [str(item) for item in value if not isinstance(item, Mapping | list)]
    else:
        values = [str(value)]
    lead = keyed.prefix + keyed.separator if keyed.prefix or keyed.leading_separator else ""
    return [_NOT_IN_GROUP_NAMES.sub("_", lead + item) for item in values]


def _hostname(instance: Mapping[str, Any], preferences: list[str]) -> str | None:
    tags = {tag["Key"]: tag["Value"] for tag in instance.get("Tags", [])}
    for preference in preferences:
        value = tags.get(preference[4:]) if preference.startswith("tag:") else instance.get(HOSTNAME_FIELDS[preference])
        if value:
            return str(value)
    return None


def _snake(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {_snake_name(str(key)): _snake(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_snake(item) for item in value]
    if isinstance(value, datetime):
        return value.isoformat()  # host variables stay plain data (JSON, YAML)
    return value


def _snake_name(name: str) -> str:
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
