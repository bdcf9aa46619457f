"""An infra file: a named set of servers, the defaults they share, the clusters over them, provider settings.

```yaml
name: wuji
defaults:                     # for every server; defaults.<provider> for that provider's servers
  taskservs: [os]
  aws: {region: eu-west-1, image: ami-0abc}
servers:
  - hostname: web1
    provider: local
    labels: [web]
    taskservs: [nginx, {name: redis, profile: cache}]
clusters:
  - name: webfarm
    selector: [web]           # every server carrying all these labels (or servers: [names])
    taskservs: [etcd]
```

Each server and cluster is read on its own, so one broken entry does not hide the problems of the others; the
checks across entries (names, references, settings still missing once defaults are merged) run over what
could be read, and every problem is reported together at its file:line:col.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, ValidationInfo, model_validator
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticOmit

from runner.errors import ParseError, SourcePosition, did_you_mean
from runner.infra.defaults import Defaults
from runner.infra.merge import merged_server
from runner.infra.provider_settings import ProviderSettingsByName
from runner.infra.servers import (
    SERVERS,
    AnyServer,
    Server,
    TaskservList,
    known_provider,
    missing_settings,
)
from runner.infra.types import GroupName, GroupNames, Hostname, HostnameList
from runner.models.base import Model, Source, report
from runner.models.types import Variables
from runner.models.validation import validate_within
from runner.positions import position_of


class Cluster(Model):
    """A named set of servers (by name, or every server carrying the ``selector`` labels) and what it carries."""

    KIND = "cluster"
    DERIVED = Model.DERIVED | {"server_positions"}

    name: GroupName = Field(description="The cluster's name (a group)")
    servers: HostnameList = Field(default_factory=list, description="Servers in the cluster, by hostname")
    selector: GroupNames = Field(default_factory=list,
                                 description="Labels: every server carrying all of them is in the cluster")
    taskservs: TaskservList = Field(default_factory=list, description="Taskservs installed on its servers")
    vars: Variables = Field(default_factory=dict, description="Variables of the cluster's group")
    server_positions: SkipJsonSchema[list[SourcePosition | None]] = Field(default_factory=list, exclude=True)

    @classmethod
    def _normalise(cls, data: dict[Any, Any], source: Source) -> dict[Any, Any]:
        if not data.get("servers") and not data.get("selector"):
            source.error("a cluster needs 'servers' (hostnames) or 'selector' (labels)")
        names = source.data.get("servers")
        if isinstance(names, list):
            data["server_positions"] = [position_of(names, index) for index in range(len(names))]
        return data


def _read_entry(kind: str, target: Callable[[Any], Any], precheck: Callable[[Any, ValidationInfo], bool]) -> Any:
    """Read one list entry on its own (as the type ``target`` gives for it): its problems are reported, it is
    left out, and reading goes on."""

    def read(value: Any, info: ValidationInfo) -> Any:
        entry = None
        if precheck(value, info):
            entry = validate_within(target(value), value, info.context, position_of(value))
        if entry is None:
            unread = info.context.setdefault(f"unread_{kind}", []) if isinstance(info.context, dict) else []
            unread.append(value.get("hostname" if kind == "servers" else "name") if isinstance(value, dict) else None)
            raise PydanticOmit
        return entry

    return read


def _server_type(value: Any) -> Any:
    # The provider's own model, not the union: error paths then lead straight to the setting.
    return SERVERS[value["provider"]] if isinstance(value, dict) else Server


def _none_is_empty(value: Any) -> Any:
    return [] if value is None else value  # "servers:" with nothing under it yet


ServerEntry = Annotated[Server, BeforeValidator(_read_entry("servers", _server_type, known_provider))]
ClusterEntry = Annotated[Cluster, BeforeValidator(_read_entry("clusters", lambda _: Cluster, lambda *_: True))]


class Infra(Model):
    """A whole infra file. After reading, ``servers`` hold each server with the defaults merged in."""

    KIND = "infra"

    name: Hostname | None = Field(default=None, description="The infra's name (default: the file's name)")
    defaults: Defaults = Field(default_factory=Defaults, description="Settings every server starts from")
    providers: ProviderSettingsByName = Field(default_factory=ProviderSettingsByName,
                                              description="How to reach each provider")
    servers: Annotated[list[ServerEntry], BeforeValidator(_none_is_empty)] = Field(description="The servers")
    clusters: Annotated[list[ClusterEntry], BeforeValidator(_none_is_empty)] = Field(
        default_factory=list, description="Named sets of servers")

    @model_validator(mode="after")
    def _merge_and_check(self, info: ValidationInfo) -> Infra:
        context = info.context if isinstance(info.context, dict) else {}
        if self.name is None and self.position is not None:
            self.name = Path(self.position.path).stem
        base = Path(self.position.path).parent if self.position else Path.cwd()
        self.servers = [merged_server(server, self.defaults, base) for server in self.servers]
        for error in _cross_check(self, context):
            report(info, error)
        return self

    def server(self, hostname: str) -> AnyServer | None:
        return next((server for server in self.servers if server.hostname == hostname), None)

    def members(self, cluster: Cluster) -> list[AnyServer]:
        """The servers of a cluster, in the order the infra lists them."""
        wanted = set(cluster.servers)
        labels = set(cluster.selector)
        return [server for server in self.servers
                if server.hostname in wanted or (labels and labels <= set(server.labels))]

    def clusters_of(self, server: AnyServer) -> list[Cluster]:
        return [cluster for cluster in self.clusters if server in self.members(cluster)]


def _cross_check(infra: Infra, context: dict[str, Any]) -> Iterator[ParseError]:
    seen: dict[str, AnyServer] = {}
    for server in infra.servers:
        if server.hostname in seen:
            first = seen[server.hostname].position
            yield ParseError(f"server '{server.hostname}' is declared twice (first at {first})", server.position)
        seen.setdefault(server.hostname, server)
        for setting in missing_settings(server):
            yield ParseError(f"server '{server.hostname}' needs '{setting}': set it on the server or under "
                                 f"defaults.{server.provider}", server.position)
    yield from _check_addresses(infra)
    known = set(seen) | {name for name in context.get("unread_servers", ()) if isinstance(name, str)}
    names: dict[str, Cluster] = {}
    for cluster in infra.clusters:
        if cluster.name in names:
            yield ParseError(f"cluster '{cluster.name}' is declared twice", cluster.position)
        names.setdefault(cluster.name, cluster)
        for index, name in enumerate(cluster.servers):
            if name not in known:
                where = cluster.server_positions[index] if index < len(cluster.server_positions) else None
                yield ParseError(f"cluster '{cluster.name}' names an unknown server '{name}'",
                                 where or cluster.position, hint=did_you_mean(name, list(known)))
        if cluster.selector and not cluster.servers and not infra.members(cluster) \
                and not context.get("unread_servers"):
            yield ParseError(f"cluster '{cluster.name}': no server carries every label of {cluster.selector}",
                             cluster.position)


def _check_addresses(infra: Infra) -> Iterator[ParseError]:
    taken: dict[str, str] = {}
    for server in infra.servers:
        address = getattr(server, "address", None)
        if address is None:
            continue
        if address in taken:
            yield ParseError(f"servers '{taken[address]}' and '{server.hostname}' both ask for address {address}",
                             server.position)
        taken.setdefault(address, server.hostname)
