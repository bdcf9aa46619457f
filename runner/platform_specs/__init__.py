"""The platform's specifications (its "seed schemas") as typed models: nested provisioning (VM → VM →
containers), golden images and OCI registry configuration, with every field, default and check of the original
schemas and their check messages word for word.

- ``runner.platform_specs.nested``, ``runner.platform_specs.golden_image``, ``runner.platform_specs.oci_registry``:
  one module per original schema file; ``runner.platform_specs.document.NestedProvisioning`` ties the nested
  provisioning schemas into one file.
- ``validate_seed_file(path, kind)`` reads a YAML file as a kind (``SEED_KINDS``) and reports every problem at
  its file:line:col; ``check_references(model)`` checks the names a document uses across it.
- ``python -m runner.platform_specs.schemas`` writes their JSON Schemas to schemas/seeds/ (see docs/schemas.md).
"""

from runner.platform_specs.base import SeedModel
from runner.platform_specs.document import NestedProvisioning
from runner.platform_specs.files import SEED_KINDS, kind_of, validate_seed, validate_seed_file
from runner.platform_specs.golden_image import (
    GoldenImageBuildJob,
    GoldenImageCache,
    GoldenImageConfig,
    GoldenImageRegistry,
    GoldenImageVersion,
    ImageBuildPolicy,
    ImageBuildSteps,
)
from runner.platform_specs.nested import (
    ContainerConfig,
    MultiTierDeployment,
    NestedProvisioningPolicy,
    NestedVmConfig,
    NetworkConfig,
    NetworkPolicy,
    VolumeConfig,
    VolumeSnapshot,
)
from runner.platform_specs.oci_registry import (
    AnyOCIRegistryConfig,
    HarborConfig,
    HarborRegistryConfig,
    LocalHTTPConfig,
    LocalOCIConfig,
    LocalStorageConfig,
    NamespaceQuota,
    OCIArtifactReference,
    OCINamespaces,
    OCIPullPolicy,
    OCIPushPolicy,
    OCIRegistryConfig,
    OCIRegistryFeatures,
    QuotaConfig,
    RateLimitConfig,
    RemoteOCIConfig,
    ReplicationTarget,
    ZotFeatures,
    ZotRegistryConfig,
)
from runner.platform_specs.references import check_references

__all__ = [
    "SEED_KINDS",
    "AnyOCIRegistryConfig",
    "ContainerConfig",
    "GoldenImageBuildJob",
    "GoldenImageCache",
    "GoldenImageConfig",
    "GoldenImageRegistry",
    "GoldenImageVersion",
    "HarborConfig",
    "HarborRegistryConfig",
    "ImageBuildPolicy",
    "ImageBuildSteps",
    "LocalHTTPConfig",
    "LocalOCIConfig",
    "LocalStorageConfig",
    "MultiTierDeployment",
    "NamespaceQuota",
    "NestedProvisioning",
    "NestedProvisioningPolicy",
    "NestedVmConfig",
    "NetworkConfig",
    "NetworkPolicy",
    "OCIArtifactReference",
    "OCINamespaces",
    "OCIPullPolicy",
    "OCIPushPolicy",
    "OCIRegistryConfig",
    "OCIRegistryFeatures",
    "QuotaConfig",
    "RateLimitConfig",
    "RemoteOCIConfig",
    "ReplicationTarget",
    "SeedModel",
    "VolumeConfig",
    "VolumeSnapshot",
    "ZotFeatures",
    "ZotRegistryConfig",
    "check_references",
    "kind_of",
    "validate_seed",
    "validate_seed_file",
]
