"""What ``provisioning-infra`` prints with ``--out json`` (or ``yaml``): one model per document, so the JSON
Schemas in schemas/ (``python -m runner.infra.schemas``) describe exactly what scripts read."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Output(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StepOutput(Output):
    """One taskserv in a server's install order."""

    name: str
    version: str | None = Field(description="The version its role's taskserv section declares")
    required_by: str | None = Field(description="The first taskserv that required it; null when asked for")


class ServerOutput(Output):
    """A server of the infra and its state as its provider reports it."""

    name: str
    provider: str
    state: str = Field(description="The provider's word (running, stopped ...), 'absent', or 'unknown (why)'")
    address: str | None = Field(description="The address to log in to, when it runs")
    labels: list[str]
    clusters: list[str]
    taskservs: list[str] = Field(description="The taskservs the infra names for it (its own)")


class ServerList(Output):
    """``server list``."""

    infra: str
    servers: list[ServerOutput]


class ServerDetails(ServerOutput):
    """``server show``: also its settings after defaults, the provider's details and the install order."""

    settings: dict[str, Any] = Field(description="The server's settings after the infra's defaults")
    details: dict[str, Any] = Field(description="What the provider reports (id, addresses, zone ...)")
    install_order: list[StepOutput] = Field(description="Every taskserv it gets, in requirement order")


class ClusterOutput(Output):
    """A cluster: its members and the taskservs set up on them together."""

    name: str
    members: list[str]
    taskservs: list[str]
    vars: dict[str, Any]


class ClusterList(Output):
    """``cluster list``."""

    infra: str
    clusters: list[ClusterOutput]


class HostTaskservs(Output):
    """One server's taskservs in install order."""

    server: str
    taskservs: list[str]


class TaskservList(Output):
    """``taskserv list``."""

    infra: str
    servers: list[HostTaskservs]


class CatalogEntry(Output):
    """A taskserv that can be installed: a role on the roles path, with its taskserv section."""

    name: str
    version: str | None
    requires: list[str] = Field(description="Requirements as written: a name, then a constraint if any")
    optional: list[str]
    provides: list[str]
    conflicts: list[str]
    health_check: str | None = Field(description="'port N', 'url U' or 'command C'; null when it has none")
    path: str = Field(description="The role's directory")


class Catalog(Output):
    """``taskserv catalog``."""

    taskservs: list[CatalogEntry]


class StatusEntry(Output):
    """One taskserv's health check on one server, run once, changing nothing."""

    server: str
    taskserv: str
    status: Literal["healthy", "unhealthy", "no check", "server down"]
    detail: str = Field(description="What the check said (its message), or why it did not run")


class TaskservStatus(Output):
    """``taskserv status``."""

    infra: str
    checks: list[StatusEntry]


OUTPUT_SCHEMAS: dict[str, tuple[str, Any]] = {
    "infra-server-list.schema.json": ("provisioning-infra server list --out json", ServerList),
    "infra-server.schema.json": ("provisioning-infra server show --out json", ServerDetails),
    "infra-cluster-list.schema.json": ("provisioning-infra cluster list --out json", ClusterList),
    "infra-cluster.schema.json": ("provisioning-infra cluster show --out json", ClusterOutput),
    "infra-taskserv-list.schema.json": ("provisioning-infra taskserv list --out json", TaskservList),
    "infra-taskserv-catalog.schema.json": ("provisioning-infra taskserv catalog --out json", Catalog),
    "infra-taskserv-status.schema.json": ("provisioning-infra taskserv status --out json", TaskservStatus),
}
