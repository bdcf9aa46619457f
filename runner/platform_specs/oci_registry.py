"""OCI registry configuration: where extensions, schema packages and platform images are pushed and pulled —
a local registry the tool starts, or a remote one — with its namespaces, features (scanning, signing,
replication, quotas, webhooks, garbage collection), artifact references, pull and push policies, and the Zot and
Harbor specialisations.

Every field, default and check of the original schemas, with their check messages word for word. Added: every
namespace (not only the first two) must be lowercase alphanumeric with hyphens, a digest must read as one,
``gc_schedule`` must be a cron line and ``scrub_interval`` a duration. ``AnyOCIRegistryConfig`` reads a
registry configuration as the model its ``type`` names (``zot`` → ``ZotRegistryConfig``, ``harbor`` →
``HarborRegistryConfig``, others → ``OCIRegistryConfig``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator, ValidationInfo, model_validator
from pydantic.json_schema import JsonDict

from runner.platform_specs.base import SeedModel
from runner.platform_specs.checks import Rule, above, at_least, between, matches, non_empty, reworded, satisfies
from runner.platform_specs.formats import (
    CRON_LINE,
    GO_DURATION,
    OCI_DIGEST,
    is_cron_line,
    is_go_duration,
    is_oci_digest,
)
from runner.platform_specs.types import YamlBool

NAMESPACE_PATTERN = r"^[a-z0-9][a-z0-9-]*[a-z0-9]$"
TAG_PATTERN = r"^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$"

Port = Annotated[int, between(1, 65535, "Port must be 1-65535")]


# A namespace name: required, and lowercase alphanumeric with hyphens. The original checks the pattern of the
# first two only; the other namespaces are held to it too (added).
ExtensionsNamespace = Annotated[str, non_empty("Extensions namespace required"), matches(
    NAMESPACE_PATTERN, "Extensions namespace must be lowercase alphanumeric with hyphens")]
KclPackagesNamespace = Annotated[str, non_empty("KCL packages namespace required"), matches(
    NAMESPACE_PATTERN, "KCL packages namespace must be lowercase alphanumeric with hyphens")]
PlatformImagesNamespace = Annotated[str, non_empty("Platform images namespace required"), matches(
    NAMESPACE_PATTERN, "Platform images namespace must be lowercase alphanumeric with hyphens")]
TestImagesNamespace = Annotated[str, non_empty("Test images namespace required"), matches(
    NAMESPACE_PATTERN, "Test images namespace must be lowercase alphanumeric with hyphens")]
CustomNamespace = Annotated[str, non_empty("Custom namespace required"), matches(
    NAMESPACE_PATTERN, "Custom namespace must be lowercase alphanumeric with hyphens")]


def _computed_default(description: str) -> Any:
    """A field whose default is computed from others: the JSON Schema states no default."""

    def _no_default(schema: JsonDict) -> None:
        schema.pop("default", None)

    return Field(None, description=description, json_schema_extra=_no_default)


class LocalHTTPConfig(SeedModel):
    """HTTP configuration for local registry"""

    KIND = "local registry HTTP"

    listen_address: str = "127.0.0.1"
    listen_port: Port = 5000
    read_timeout: int = Field(60, description="seconds")
    write_timeout: int = 60
    idle_timeout: int = 120


class LocalStorageConfig(SeedModel):
    """Storage configuration for local registry"""

    KIND = "local registry storage"

    backend: Literal["filesystem", "s3", "azure"] = Field("filesystem", description="Storage backend")
    rootdirectory: str | None = Field(None, description="Filesystem storage")
    gc_enabled: YamlBool = Field(True, description="Garbage collection")
    gc_interval: int = Field(3600, description="seconds")
    dedupe_enabled: YamlBool = Field(True, description="Deduplication")


class LocalOCIConfig(SeedModel):
    """Local OCI registry deployment configuration. Used for solo mode development, testing OCI artifact
    distribution and offline extension development."""

    KIND = "local registry"

    data_dir: Annotated[str, non_empty("Data directory required"),
                        matches(r"^[~/]", "Data dir must be absolute or home-relative path")] = Field(
        description="Data storage directory")
    config_path: Annotated[str, non_empty("Config path required")] = Field(
        description="Registry configuration file path")
    auto_start: YamlBool = Field(False, description="Auto-start registry on provisioning startup")
    binary_path: str | None = Field(None, description="Binary path (optional, uses PATH if not specified)")
    log_file: str | None = _computed_default("Log file path (default: <data_dir>/registry.log)")
    http_config: LocalHTTPConfig | None = Field(None, description="HTTP configuration")
    storage_config: LocalStorageConfig | None = Field(None, description="Storage configuration")

    @model_validator(mode="after")
    def _default_log_file(self) -> LocalOCIConfig:
        if "log_file" not in self.model_fields_set:
            self.log_file = f"{self.data_dir}/registry.log"
        return self


class RateLimitConfig(SeedModel):
    """Rate limiting configuration for remote registry"""

    KIND = "rate limit"

    requests_per_second: Annotated[int, above(0, "Rate limit must be positive")] = Field(
        10, description="Requests per second")
    burst: Annotated[int, above(0, "Burst size must be positive")] = Field(20, description="Burst size")
    pull_limit: int | None = Field(None, description="Per-operation limits (optional)")
    push_limit: int | None = None


class RemoteOCIConfig(SeedModel):
    """Remote OCI registry connection configuration. Used for a multi-user shared registry, a CI/CD artifact
    registry or an enterprise production registry."""

    KIND = "remote registry"

    timeout: Annotated[int, above(0, "Timeout must be positive")] = Field(
        30, description="Connection timeout (seconds)")
    retries: Annotated[int, at_least(0, "Retries must be non-negative")] = Field(3, description="Retry configuration")
    retry_delay: int = Field(5, description="seconds")
    retry_backoff: Annotated[float, above(1.0, "Backoff multiplier must be > 1.0")] = Field(
        2.0, description="exponential backoff multiplier")
    verify_ssl: YamlBool = Field(True, description="SSL/TLS verification")
    http_proxy: str | None = Field(None, description="Proxy configuration (optional)")
    https_proxy: str | None = None
    no_proxy: list[str] | None = None
    rate_limit: RateLimitConfig | None = Field(None, description="Rate limiting")


class OCINamespaces(SeedModel):
    """OCI registry namespaces for different artifact types. Namespaces organize artifacts by purpose and allow
    different access control policies per namespace."""

    KIND = "namespaces"

    extensions: ExtensionsNamespace = Field(
        "provisioning-extensions", description="Extension artifacts (providers, taskservs, clusters)")
    kcl_packages: KclPackagesNamespace = Field("provisioning-kcl", description="KCL package artifacts")
    platform_images: PlatformImagesNamespace = Field(
        "provisioning-platform", description="Platform service images (orchestrator, control-center)")
    test_images: TestImagesNamespace = Field("provisioning-test", description="Test environment images")
    custom: dict[str, CustomNamespace] | None = Field(None, description="Custom user-defined namespaces")

    def names(self) -> list[str]:
        """Every namespace of the registry, the custom ones included."""
        return [self.extensions, self.kcl_packages, self.platform_images, self.test_images,
                *(self.custom or {}).values()]


class ReplicationTarget(SeedModel):
    """Harbor replication target configuration"""

    KIND = "replication target"

    name: Annotated[str, non_empty("Replication target name required")]
    type: Literal["harbor", "docker-hub", "aws-ecr", "azure-acr", "google-gcr"]
    endpoint: Annotated[str, non_empty("Replication endpoint required")]
    credentials: str | None = Field(None, description="Path to credentials file")
    verify_ssl: YamlBool = True


class NamespaceQuota(SeedModel):
    """Per-namespace quota configuration"""

    KIND = "namespace quota"

    storage_limit_gb: Annotated[int, above(0, "Namespace storage limit must be positive")] = 50
    artifact_limit: Annotated[int, above(0, "Namespace artifact limit must be positive")] = 1000


class QuotaConfig(SeedModel):
    """Registry quota configuration"""

    KIND = "quota"

    storage_limit_gb: Annotated[int, above(0, "Storage limit must be positive")] = Field(
        100, description="Storage quota (GB)")
    artifact_limit: int | None = Field(10000, description="Artifact count limit")
    namespace_quotas: dict[str, NamespaceQuota] | None = Field(None, description="Per-namespace quotas")


def _required_when_true(switch: str, needed: str) -> dict[str, Any]:
    return {"if": {"properties": {switch: {"const": True}}, "required": [switch]}, "then": {"required": [needed]}}


class OCIRegistryFeatures(SeedModel):
    """Registry-specific feature configuration. Different registry implementations support different features.
    This schema allows enabling/disabling features based on registry capabilities."""

    KIND = "registry features"
    RULES = (
        Rule("vulnerability_scanning", lambda f: not f.vulnerability_scanning or f.scanner_type is not None,
             "Scanner type required when vulnerability scanning enabled",
             _required_when_true("vulnerability_scanning", "scanner_type")),
        Rule("image_signing", lambda f: not f.image_signing or f.signing_method is not None,
             "Signing method required when image signing enabled",
             _required_when_true("image_signing", "signing_method")),
    )

    vulnerability_scanning: YamlBool = Field(False, description="Vulnerability scanning (Harbor, Artifactory)")
    scanner_type: Literal["trivy", "clair", "anchore"] | None = None
    image_signing: YamlBool = Field(False, description="Image signing/verification (Notary, Cosign)")
    signing_method: Literal["notary", "cosign"] | None = None
    replication_enabled: YamlBool = Field(False, description="Replication (Harbor)")
    replication_targets: list[ReplicationTarget] | None = None
    quota_enabled: YamlBool = Field(False, description="Quota management")
    quota_config: QuotaConfig | None = None
    webhook_enabled: YamlBool = Field(False, description="Webhook notifications")
    webhook_endpoints: list[str] | None = None
    gc_enabled: YamlBool = Field(True, description="Garbage collection")
    gc_schedule: Annotated[str, satisfies(  # added
        is_cron_line, "GC schedule must be a cron line such as '0 2 * * *'", pattern=CRON_LINE)] | None = Field(
        "0 2 * * *", description="Daily at 2 AM")


class OCIRegistryConfig(SeedModel):
    """OCI registry configuration for artifact and image distribution"""

    KIND = "OCI registry"
    RULES = (
        Rule("deployment",
             lambda c: c.deployment == "disabled" or (c.deployment == "local" and c.local is not None)
             or (c.deployment == "remote" and c.remote is not None),
             "Config must match deployment type",
             {"allOf": [{"if": {"properties": {"deployment": {"const": kind}}, "required": ["deployment"]},
                         "then": {"required": [kind]}} for kind in ("local", "remote")]}),
        Rule("auth_required", lambda c: not c.auth_required or c.username is not None or c.auth_token_path is not None,
             "Authentication config required when auth enabled",
             {"if": {"properties": {"auth_required": {"const": True}}, "required": ["auth_required"]},
              "then": {"anyOf": [{"required": ["username"]}, {"required": ["auth_token_path"]}]}}),
        Rule("tls_enabled",
             lambda c: not c.tls_enabled or (c.tls_cert_path is not None and c.tls_key_path is not None)
             or c.deployment == "remote",
             "TLS cert/key required for local TLS",
             {"if": {"properties": {"tls_enabled": {"const": True}, "deployment": {"not": {"const": "remote"}}},
                     "required": ["tls_enabled"]},
              "then": {"required": ["tls_cert_path", "tls_key_path"]}}),
    )

    deployment: Literal["local", "remote", "disabled"] = Field(description="Deployment type")
    type: Literal["distribution", "zot", "harbor", "artifactory"] = Field(description="Registry implementation type")
    endpoint: Annotated[str, non_empty("OCI registry endpoint required")] = Field(
        description="Registry endpoint (hostname or IP)")
    port: Port | None = Field(5000, description="Registry port (optional, defaults by type)")
    tls_enabled: YamlBool = Field(False, description="TLS/SSL configuration")
    tls_cert_path: str | None = None
    tls_key_path: str | None = None
    ca_cert_path: str | None = None
    auth_required: YamlBool = Field(False, description="Authentication")
    username: str | None = None
    password_path: str | None = Field(None, description="Path to password file")
    auth_token_path: str | None = Field(None, description="Path to auth token")
    local: LocalOCIConfig | None = Field(None, description="Local deployment configuration")
    remote: RemoteOCIConfig | None = Field(None, description="Remote connection configuration")
    namespaces: OCINamespaces = Field(description="Artifact namespaces/repositories")
    features: OCIRegistryFeatures | None = Field(None, description="Registry-specific features")


class OCIArtifactReference(SeedModel):
    """OCI artifact reference for pulling/pushing artifacts. Format: <registry>/<namespace>/<repository>:<tag>,
    with @<digest> when a digest is given."""

    KIND = "artifact reference"

    registry: Annotated[str, non_empty("Registry required")] = Field(description="Registry endpoint")
    namespace: Annotated[str, non_empty("Namespace required")] = Field(description="Namespace/project")
    repository: Annotated[str, non_empty("Repository required")] = Field(description="Repository name")
    tag: Annotated[str, non_empty("Tag required"), matches(TAG_PATTERN, "Invalid tag format")] = Field(
        "latest", description='Tag (optional, defaults to "latest")')
    digest: Annotated[str, satisfies(  # added
        is_oci_digest, "Invalid digest format (expected ALGORITHM:HEX, such as sha256:...)", pattern=OCI_DIGEST,
    )] | None = Field(None, description="Digest (optional, for content-addressable pulls)")
    full_reference: str = _computed_default(
        "Computed full reference (default: <registry>/<namespace>/<repository>:<tag>[@<digest>])")

    @model_validator(mode="after")
    def _default_full_reference(self) -> OCIArtifactReference:
        if "full_reference" not in self.model_fields_set:
            digest = f"@{self.digest}" if self.digest else ""
            self.full_reference = f"{self.registry}/{self.namespace}/{self.repository}:{self.tag}{digest}"
        return self


class OCIPullPolicy(SeedModel):
    """OCI artifact pull policy configuration. Defines caching and pull behavior for artifacts"""

    KIND = "pull policy"

    policy: Annotated[Literal["always", "if-not-present", "never"], reworded("Invalid pull policy")] = Field(
        "if-not-present", description="Pull policy")
    cache_ttl: Annotated[int, above(0, "Cache TTL must be positive")] = Field(3600, description="Cache TTL (seconds)")
    verify_cached: YamlBool = Field(True, description="Verify digest on cached artifacts")
    allow_insecure: YamlBool = Field(False, description="Allow insecure registries (development only)")


class OCIPushPolicy(SeedModel):
    """OCI artifact push policy configuration. Defines pushing behavior and constraints"""

    KIND = "push policy"

    allow_overwrite: YamlBool = Field(False, description="Allow overwriting existing tags")
    require_signing: YamlBool = Field(False, description="Require tag signing before push")
    auto_tag: YamlBool = Field(True, description="Automatic tagging strategy")
    tag_format: str | None = "v{version}-{timestamp}"
    compression_enabled: YamlBool = Field(True, description="Compression")
    compression_level: Annotated[int, between(0, 9, "Compression level must be 0-9")] = Field(6, description="0-9")


class ZotFeatures(SeedModel):
    """Zot-specific features"""

    KIND = "Zot features"

    search_enabled: YamlBool = Field(True, description="Enable search API")
    metrics_enabled: YamlBool = Field(True, description="Enable metrics endpoint")
    metrics_port: int = 9090
    sync_enabled: YamlBool = Field(False, description="Enable sync (pull-through cache)")
    sync_registries: list[str] | None = None
    scrub_enabled: YamlBool = Field(True, description="Enable scrub (background verification)")
    scrub_interval: Annotated[str, satisfies(  # added
        is_go_duration, "Scrub interval must be a duration such as 24h or 90m", pattern=GO_DURATION)] = "24h"


class ZotRegistryConfig(OCIRegistryConfig):
    """Zot registry specific configuration. Zot is a lightweight, cloud-native OCI registry focused on minimal
    resource usage and developer experience."""

    KIND = "Zot registry"

    type: Literal["zot"] = "zot"
    zot_features: ZotFeatures | None = Field(None, description="Zot-specific features")


class HarborConfig(SeedModel):
    """Harbor-specific configuration"""

    KIND = "Harbor"

    project: Annotated[str, non_empty("Harbor project required")] = Field(description="Harbor project (namespace)")
    public_project: YamlBool = Field(False, description="Project visibility")
    content_trust: YamlBool = Field(False, description="Content trust (Notary)")
    auto_scan: YamlBool = Field(True, description="Auto-scan on push")
    prevent_vulnerable: YamlBool = Field(True, description="Prevent vulnerable images")
    severity_threshold: Literal["critical", "high", "medium", "low"] = "high"


class HarborRegistryConfig(OCIRegistryConfig):
    """Harbor registry specific configuration. Harbor is an enterprise-grade container registry with security
    scanning, replication, and RBAC."""

    KIND = "Harbor registry"

    type: Literal["harbor"] = "harbor"
    harbor_config: HarborConfig | None = Field(None, description="Harbor-specific configuration")


_BY_TYPE: dict[str, type[OCIRegistryConfig]] = {"zot": ZotRegistryConfig, "harbor": HarborRegistryConfig}


def registry_config_type(data: Any) -> type[OCIRegistryConfig]:
    """The model a registry configuration is read as, by its ``type``."""
    kind = data.get("type") if isinstance(data, Mapping) else getattr(data, "type", None)
    return _BY_TYPE.get(kind, OCIRegistryConfig) if isinstance(kind, str) else OCIRegistryConfig


def _read_by_type(data: Any, info: ValidationInfo) -> OCIRegistryConfig:
    return registry_config_type(data).model_validate(data, context=info.context)


# A registry configuration of any type: Zot's and Harbor's read their own sections, the others the common ones.
AnyOCIRegistryConfig = Annotated[
    ZotRegistryConfig | HarborRegistryConfig | OCIRegistryConfig,
    PlainValidator(_read_by_type, json_schema_input_type=ZotRegistryConfig | HarborRegistryConfig | OCIRegistryConfig),
]

OCI_REGISTRY_SCHEMAS: tuple[type[SeedModel], ...] = (
    OCIRegistryConfig, LocalOCIConfig, LocalHTTPConfig, LocalStorageConfig, RemoteOCIConfig, RateLimitConfig,
    OCINamespaces, OCIRegistryFeatures, ReplicationTarget, QuotaConfig, NamespaceQuota, OCIArtifactReference,
    OCIPullPolicy, OCIPushPolicy, ZotRegistryConfig, ZotFeatures, HarborRegistryConfig, HarborConfig,
)
