"""A nested provisioning document: the file that ties the nested provisioning schemas together.

The original schemas have no top-level container: ``MultiTierDeployment`` holds one stack (networks, volumes,
parent VMs, nested VMs, containers), while policies, snapshots and golden images stand alone. A document puts
them in one file, so names can be checked across them (``runner.platform_specs.references``)::

    policy:                       # NestedProvisioningPolicy; its defaults apply when left out
      max_nesting_depth: 3
    golden_images:                # GoldenImageConfig: the images nested VMs name in from_golden_image
      - name: k8s-node
        taskservs: [containerd, kubernetes]
    deployments:                  # MultiTierDeployment: names resolve within their own deployment
      - name: web
        networks: [{name: front, subnet: 10.10.0.0/24}]
        volumes: [{name: data, mount_path: /data}]
        parent_vms: [host-1]      # servers the provider creates: nesting level 1
        nested_vms: [{name: vm-1, parent_vm: host-1, networks: [front], volumes: [data]}]
        containers: [{name: web-1, image: nginx, parent_vm: vm-1, networks: [front]}]
    network_policies:             # NetworkPolicy: source/destination are CIDRs or names of the deployments
      - {name: web-in, direction: inbound, protocol: tcp, destination: vm-1, port_range: "443"}
    snapshots:                    # VolumeSnapshot: volume_name names a volume of a deployment
      - {name: data-1, volume_name: data, created_at: 2025-10-06T12:00:00Z, size_gb: 1.5, checksum: "..."}
"""

from __future__ import annotations

from pydantic import Field

from runner.platform_specs.base import SeedModel
from runner.platform_specs.golden_image import GoldenImageConfig
from runner.platform_specs.nested import MultiTierDeployment, NestedProvisioningPolicy, NetworkPolicy, VolumeSnapshot


class NestedProvisioning(SeedModel):
    """A nested provisioning document: deployments (VM → VM → containers), the golden images their VMs use,
    network policies, volume snapshots and the nesting policy they must keep."""

    KIND = "nested provisioning document"

    policy: NestedProvisioningPolicy = Field(
        default_factory=NestedProvisioningPolicy, description="Limits every deployment must keep")
    golden_images: list[GoldenImageConfig] = Field(
        default_factory=list, description="Golden images nested VMs may name in from_golden_image")
    deployments: list[MultiTierDeployment] = Field(default_factory=list, description="Application stacks")
    network_policies: list[NetworkPolicy] = Field(default_factory=list, description="Traffic rules")
    snapshots: list[VolumeSnapshot] = Field(default_factory=list, description="Snapshots of the volumes")
