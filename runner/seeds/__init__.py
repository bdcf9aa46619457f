"""The seed schemas as typed models: nested provisioning (VM → VM → containers), golden images and OCI registry
configuration, with every field, default and check of the original schemas and their check messages word for
word.

- ``runner.seeds.nested``, ``runner.seeds.golden_image``, ``runner.seeds.oci_registry``: one module per original
  schema file; ``runner.seeds.document.NestedProvisioning`` ties the nested provisioning schemas into one file.
- ``validate_seed_file(path, kind)`` reads a YAML file as a kind (``SEED_KINDS``) and reports every problem at
  its file:line:col; ``check_references(model)`` checks the names a document uses across it.
- ``python -m runner.seeds.schemas`` writes their JSON Schemas to schemas/seeds/ (see docs/schemas.md).
"""

from runner.seeds.base import SeedModel
from runner.seeds.document import NestedProvisioning
from runner.seeds.files import SEED_KINDS, kind_of, validate_seed, validate_seed_file
from runner.seeds.golden_image import (
    GoldenImageBuildJob,
    GoldenImageCache,
    GoldenImageConfig,
    GoldenImageRegistry,
    GoldenImageVersion,
    ImageBuildPolicy,
    ImageBuildSteps,
)
from runner.seeds.nested import (
    ContainerConfig,
    MultiTierDeployment,
    NestedProvisioningPolicy,
    NestedVmConfig,
    NetworkConfig,
    NetworkPolicy,
    VolumeConfig,
    VolumeSnapshot,
)
from runner.seeds.oci_registry import (
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
from runner.seeds.references import check_references

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
