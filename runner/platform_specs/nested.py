"""Nested provisioning (VM → VM → containers): volumes, networks, nested VMs, containers, multi-tier
deployments, network policies, volume snapshots and the nesting policy.

Every field, default and check of the original schemas, with their check messages word for word. The original
leaves some things unchecked that would only fail later on a host; these are checked here too (marked "added"):
a network's subnet is a CIDR, its gateway and DHCP range lie inside it, a VLAN network has a VLAN ID, a policy's
port range reads as ports. Names that refer to other mappings (a VM's parent, networks, volumes, golden image)
are checked by ``runner.platform_specs.references``, which can see the whole document.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from runner.platform_specs.base import SeedModel
from runner.platform_specs.checks import Rule, above, at_least, between, matches, non_empty, non_empty_list, satisfies
from runner.platform_specs.formats import PORT_RANGE, is_address_in, is_network, is_port_range
from runner.platform_specs.types import PortMap, Timestamp, YamlBool

VolumeType = Literal["local", "nfs", "cifs", "cloud", "host"]
NetworkType = Literal["bridge", "overlay", "host", "vlan"]


class VolumeConfig(SeedModel):
    """Storage volume configuration for VMs and containers. Defines volumes that can be attached to VMs or
    mounted in containers. Supports local storage, network mounts, and cloud storage."""

    KIND = "volume"

    name: Annotated[str, non_empty("Volume name required")] = Field(description="Volume name (unique)")
    description: str | None = Field(None, description="Volume description")
    type: VolumeType = "local"
    size_gb: Annotated[int, at_least(0, "Size must be non-negative")] | None = Field(
        None, description="Volume size in GB")
    mount_path: Annotated[str, non_empty("Mount path required"), matches("^/", "Mount path must be absolute")] = (
        Field(description="Mount point inside container/VM"))
    readonly: YamlBool | None = Field(False, description="Read-only mount")
    mount_mode: str | None = Field("755", description="Unix mount mode")
    host: str | None = Field(None, description="Remote host (for NFS/CIFS)")
    path: str | None = Field(None, description="Remote path (for NFS/CIFS)")
    username: str | None = Field(None, description="Username for auth")
    password: str | None = Field(None, description="Password for auth (use secrets)")
    bucket: str | None = Field(None, description="S3 bucket name")
    provider: Literal["aws", "azure", "gcp", "minio"] | None = "aws"
    region: str | None = Field(None, description="Cloud region")
    iops: int | None = Field(None, description="IOPS limit")
    throughput_mbps: int | None = Field(None, description="Throughput limit")


def _inside_subnet(network: NetworkConfig, address: str | None) -> bool:
    # Nothing to compare without an address or with a bad subnet (reported on its own).
    return address is None or not is_network(network.subnet) or is_address_in(address, network.subnet)


def _inside_rule(field: str, what: str) -> Rule:
    return Rule(field, lambda network: _inside_subnet(network, getattr(network, field)),
                f"{what} must be an IP address inside the subnet")  # added


class NetworkConfig(SeedModel):
    """Network configuration for nested VMs and containers. Defines virtual networks, VLANs, and network
    policies."""

    KIND = "network"
    RULES = (
        Rule("type", lambda network: network.type != "vlan" or network.vlan_id is not None,
             "A VLAN network needs vlan_id",  # added
             {"if": {"properties": {"type": {"const": "vlan"}}, "required": ["type"]},
              "then": {"required": ["vlan_id"]}}),
        _inside_rule("gateway", "Gateway"),
        _inside_rule("dhcp_start", "DHCP range start"),
        _inside_rule("dhcp_end", "DHCP range end"),
    )

    name: Annotated[str, non_empty("Network name required")] = Field(description="Network name")
    description: str | None = Field(None, description="Network description")
    type: NetworkType = "bridge"
    vlan_id: Annotated[int, between(1, 4094, "VLAN ID must be 1-4094")] | None = Field(  # added
        None, description="VLAN ID (if applicable)")
    subnet: Annotated[str, non_empty("Subnet required"),
                      satisfies(is_network, "Subnet must be a CIDR such as 192.168.1.0/24")] = Field(  # added
        description="Subnet CIDR (e.g., 192.168.1.0/24)")
    gateway: str | None = Field(None, description="Gateway IP")
    dns_servers: list[str] | None = Field(None, description="DNS servers")
    mtu: int | None = Field(1500, description="MTU size")
    dhcp_enabled: YamlBool | None = Field(True, description="DHCP enabled")
    dhcp_start: str | None = Field(None, description="DHCP range start")
    dhcp_end: str | None = Field(None, description="DHCP range end")
    allow_outbound: YamlBool | None = Field(True, description="Allow outbound traffic")
    allow_inbound: YamlBool | None = Field(False, description="Allow inbound traffic")
    rules: list[dict[str, str]] | None = Field(None, description="Network rules")
    bandwidth_limit_mbps: int | None = Field(None, description="Bandwidth limit")
    latency_ms: int | None = Field(None, description="Artificial latency")


class NestedVmConfig(SeedModel):
    """Configuration for a nested VM (VM inside a VM). Enables multi-level virtualization for complex
    deployments."""

    KIND = "nested VM"

    name: Annotated[str, non_empty("VM name required")] = Field(description="VM name")
    description: str | None = Field(None, description="VM description")
    parent_vm: Annotated[str, non_empty("Parent VM required")] = Field(description="Parent VM name")
    cpu: Annotated[int, between(1, 32, "CPU must be 1-32")] = Field(2, description="CPU cores (1-32)")
    memory_mb: Annotated[int, between(512, 65536, "Memory must be 512MB-64GB")] = Field(
        2048, description="Memory in MB")
    disk_gb: Annotated[int, between(5, 1000, "Disk must be 5-1000GB")] = Field(20, description="Disk size in GB")
    nested_virt: YamlBool | None = Field(True, description="Enable nested virtualization")
    base_image: str | None = Field("ubuntu-22.04", description="Base image")
    from_golden_image: str | None = Field(None, description="Golden image to use")
    networks: list[str] = Field(description="Network names to connect")
    static_ip: str | None = Field(None, description="Static IP address")
    dns: list[str] | None = Field(None, description="DNS servers")
    volumes: list[str] | None = Field(None, description="Volume names to attach")
    extra_disks: list[dict[str, int]] | None = Field(None, description="Additional disks {name: size_gb}")
    auto_start: YamlBool | None = Field(False, description="Auto-start on parent boot")
    start_order: int | None = Field(100, description="Startup order")
    restart_policy: Literal["no", "always", "on-failure"] | None = "always"


class ContainerConfig(SeedModel):
    """Container configuration for running inside nested VMs. Defines container deployments with resource
    limits and networking."""

    KIND = "container"

    name: Annotated[str, non_empty("Container name required")] = Field(description="Container name")
    image: Annotated[str, non_empty("Image required")] = Field(description="Container image")
    tag: str | None = Field("latest", description="Image tag")
    parent_vm: str = Field(description="Parent VM name")
    runtime: Literal["docker", "podman", "containerd"] = "containerd"
    cpu_millicores: Annotated[int, above(0, "CPU must be positive")] | None = Field(
        1000, description="CPU in millicores")
    memory_mb: Annotated[int, at_least(256, "Memory must be at least 256MB")] | None = Field(
        512, description="Memory in MB")
    disk_gb: int | None = Field(10, description="Disk space")
    networks: list[str] | None = Field(None, description="Networks to connect")
    expose_ports: list[PortMap] | None = Field(None, description="Port mappings {host: container}")
    environment: dict[str, str] | None = Field(None, description="Environment variables")
    volumes: list[dict[str, str]] | None = Field(None, description="Volume mounts {name: path}")
    tmpfs: int | None = Field(None, description="Tmpfs size in MB")
    auto_start: YamlBool | None = Field(False, description="Auto-start on VM boot")
    restart_policy: Literal["no", "unless-stopped", "always"] | None = "unless-stopped"
    health_check: dict[str, str] | None = Field(None, description="Health check config")


class MultiTierDeployment(SeedModel):
    """Multi-tier application deployment specification. Defines complete application stack with multiple VMs
    and containers."""

    KIND = "deployment"

    name: Annotated[str, non_empty("Deployment name required")] = Field(description="Deployment name")
    version: str | None = Field("1.0.0", description="Version")
    description: str | None = Field(None, description="Description")
    networks: Annotated[list[NetworkConfig], non_empty_list("At least one network required")] = Field(
        description="Virtual networks")
    volumes: list[VolumeConfig] = Field(description="Shared volumes")
    parent_vms: list[str] = Field(description="Parent VMs")
    nested_vms: list[NestedVmConfig] = Field(description="Nested VMs")
    containers: list[ContainerConfig] = Field(description="Containers")
    replicas: Annotated[int, above(0, "Replicas must be positive")] | None = Field(
        1, description="Replicas of deployment")
    strategy: Literal["rolling", "blue-green", "canary"] | None = "rolling"
    health_check_interval: int | None = Field(30, description="Health check interval (s)")


class NetworkPolicy(SeedModel):
    """Network security policies for nested environments. Controls traffic flow between VMs, containers, and
    external network."""

    KIND = "network policy"

    name: Annotated[str, non_empty("Policy name required")] = Field(description="Policy name")
    description: str | None = Field(None, description="Description")
    direction: Literal["inbound", "outbound", "both"] = "both"
    protocol: Literal["tcp", "udp", "icmp", "all"] = "all"
    source: str | None = Field(None, description="Source CIDR or name")
    destination: str | None = Field(None, description="Destination CIDR or name")
    port_range: Annotated[str, satisfies(is_port_range, "Port range must be a port or FIRST-LAST within 1-65535",
                                         pattern=PORT_RANGE)] | None = Field(  # added
        None, description='Port range (e.g., "8000-9000")')
    action: Literal["allow", "deny", "log"] = "allow"
    priority: int | None = Field(100, description="Rule priority")


class VolumeSnapshot(SeedModel):
    """Snapshot of a volume for backup and disaster recovery."""

    KIND = "volume snapshot"

    name: Annotated[str, non_empty("Snapshot name required")] = Field(description="Snapshot name")
    volume_name: Annotated[str, non_empty("Volume name required")] = Field(description="Source volume name")
    created_at: Timestamp = Field(description="Creation timestamp")
    size_gb: float = Field(description="Snapshot size")
    checksum: str = Field(description="SHA256 checksum")
    description: str | None = Field(None, description="Description")
    retention_days: int | None = Field(30, description="Retention period")
    auto_delete: YamlBool | None = Field(True, description="Auto-delete after retention")


class NestedProvisioningPolicy(SeedModel):
    """Global policy for nested provisioning operations. Controls behavior, limits, and defaults for nested
    environments."""

    KIND = "nested provisioning policy"

    max_nesting_depth: Annotated[int, between(1, 5, "Nesting depth must be 1-5")] = Field(
        3, description="Maximum nesting levels")
    max_vms_per_parent: Annotated[int, above(0, "Max VMs must be positive")] = Field(
        10, description="Max VMs per parent")
    max_containers_per_vm: int = Field(50, description="Max containers per VM")
    max_cpu_per_vm: Annotated[int, above(0, "Max CPU must be positive")] = Field(16, description="Max CPU cores")
    max_memory_per_vm: int = Field(32768, description="Max memory in MB")
    max_disk_per_vm: int = Field(500, description="Max disk in GB")
    # Plain strings in the original; they hold a network or volume type, so they take the same values.
    default_network_type: NetworkType = "bridge"
    enable_ipv6: YamlBool | None = False
    enable_vlan_tagging: YamlBool | None = False
    default_volume_type: VolumeType = "local"
    snapshot_retention_days: int = 30
    enable_security_hardening: YamlBool | None = True
    enable_network_isolation: YamlBool | None = True
    require_auth_between_tiers: YamlBool | None = False


NESTED_SCHEMAS: tuple[type[SeedModel], ...] = (
    VolumeConfig, NetworkConfig, NestedVmConfig, ContainerConfig, MultiTierDeployment, NetworkPolicy,
    VolumeSnapshot, NestedProvisioningPolicy,
)
