"""Seed examples shared by the seed tests: a minimal valid mapping of every kind, and one case per check.

Each check case breaks one field of a valid mapping; the message is the original schema's, word for word
(``added`` marks the checks the original lacks). ``schema`` says whether the JSON Schema can tell too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from runner.errors import UserError
from runner.loader.yaml import load_yaml_text
from runner.models.validation import ParseErrors
from runner.platform_specs import validate_seed

SHA256 = "a" * 64
WHEN = "2025-10-06T12:00:00Z"
NETWORK = {"name": "front", "subnet": "10.10.0.0/24"}

VALID: dict[str, dict[str, Any]] = {
    "nested-provisioning": {},
    "volume-config": {"name": "data", "mount_path": "/data"},
    "network-config": NETWORK,
    "nested-vm-config": {"name": "vm-1", "parent_vm": "host-1", "networks": []},
    "container-config": {"name": "web-1", "image": "nginx", "parent_vm": "vm-1"},
    "multi-tier-deployment": {"name": "web", "networks": [NETWORK], "volumes": [], "parent_vms": [],
                              "nested_vms": [], "containers": []},
    "network-policy": {"name": "web-in"},
    "volume-snapshot": {"name": "data-1", "volume_name": "data", "created_at": WHEN, "size_gb": 1.5,
                        "checksum": SHA256},
    "nested-provisioning-policy": {},
    "golden-image-config": {"name": "k8s-node"},
    "golden-image-build-job": {"job_id": "job-1", "image_name": "k8s-node", "image_version": "1.0.0",
                               "image_config": {"name": "k8s-node"}},
    "golden-image-version": {"image_name": "k8s-node", "version": "1.0.0", "created_at": WHEN,
                             "image_path": "/images/k8s-node-1.0.0.qcow2", "image_size_gb": 2.5, "checksum": SHA256},
    "golden-image-cache": {"cache_id": "cache-1", "image_name": "k8s-node", "image_version": "1.0.0",
                           "storage_path": "/cache/k8s-node.qcow2", "disk_size_gb": 2.5, "cached_at": WHEN,
                           "checksum": SHA256},
    "image-build-steps": {},
    "image-build-policy": {"cache_location": "/var/cache/images"},
    "golden-image-registry": {"registry_id": "main", "location": "/var/lib/images", "created_at": WHEN,
                              "images": {}, "versions": [], "builds": [], "cache": [],
                              "policy": {"cache_location": "/var/cache/images"}},
    "oci-registry-config": {"deployment": "disabled", "type": "distribution", "endpoint": "localhost",
                            "namespaces": {}},
    "local-oci-config": {"data_dir": "~/.provisioning/oci-registry",
                         "config_path": "~/.provisioning/oci-registry/config.json"},
    "local-http-config": {},
    "local-storage-config": {},
    "remote-oci-config": {},
    "rate-limit-config": {},
    "oci-namespaces": {},
    "oci-registry-features": {},
    "replication-target": {"name": "hub", "type": "docker-hub", "endpoint": "https://registry-1.docker.io"},
    "quota-config": {},
    "namespace-quota": {},
    "oci-artifact-reference": {"registry": "localhost:5000", "namespace": "provisioning-extensions",
                               "repository": "kubernetes"},
    "oci-pull-policy": {},
    "oci-push-policy": {},
    "zot-registry-config": {"deployment": "disabled", "endpoint": "localhost", "namespaces": {}},
    "zot-features": {},
    "harbor-registry-config": {"deployment": "disabled", "endpoint": "harbor.example.com", "namespaces": {}},
    "harbor-config": {"project": "provisioning"},
}


@dataclass(frozen=True)
class CheckCase:
    kind: str
    key: str
    value: Any
    message: str
    schema: bool = True  # the JSON Schema rejects it as well
    added: bool = False  # a check the original schema does not have

    @property
    def data(self) -> dict[str, Any]:
        return {**VALID[self.kind], self.key: self.value}

    def __str__(self) -> str:
        return f"{self.kind}.{self.key}={str(self.value)[:20]}"


CHECKS: list[CheckCase] = [
    # 000 nested provisioning
    CheckCase("volume-config", "name", "", "Volume name required"),
    CheckCase("volume-config", "mount_path", "", "Mount path required"),
    CheckCase("volume-config", "mount_path", "data", "Mount path must be absolute"),
    CheckCase("volume-config", "size_gb", -1, "Size must be non-negative"),
    CheckCase("network-config", "name", "", "Network name required"),
    CheckCase("network-config", "subnet", "", "Subnet required"),
    CheckCase("network-config", "subnet", "10.10.0.0/33", "Subnet must be a CIDR such as 192.168.1.0/24",
              schema=False, added=True),
    CheckCase("network-config", "vlan_id", 4095, "VLAN ID must be 1-4094", added=True),
    CheckCase("nested-vm-config", "name", "", "VM name required"),
    CheckCase("nested-vm-config", "parent_vm", "", "Parent VM required"),
    CheckCase("nested-vm-config", "cpu", 0, "CPU must be 1-32"),
    CheckCase("nested-vm-config", "cpu", 33, "CPU must be 1-32"),
    CheckCase("nested-vm-config", "memory_mb", 511, "Memory must be 512MB-64GB"),
    CheckCase("nested-vm-config", "memory_mb", 65537, "Memory must be 512MB-64GB"),
    CheckCase("nested-vm-config", "disk_gb", 4, "Disk must be 5-1000GB"),
    CheckCase("nested-vm-config", "disk_gb", 1001, "Disk must be 5-1000GB"),
    CheckCase("container-config", "name", "", "Container name required"),
    CheckCase("container-config", "image", "", "Image required"),
    CheckCase("container-config", "cpu_millicores", 0, "CPU must be positive"),
    CheckCase("container-config", "memory_mb", 255, "Memory must be at least 256MB"),
    CheckCase("multi-tier-deployment", "name", "", "Deployment name required"),
    CheckCase("multi-tier-deployment", "replicas", 0, "Replicas must be positive"),
    CheckCase("multi-tier-deployment", "networks", [], "At least one network required"),
    CheckCase("network-policy", "name", "", "Policy name required"),
    CheckCase("network-policy", "port_range", "9000-8000", "Port range must be a port or FIRST-LAST within 1-65535",
              schema=False, added=True),
    CheckCase("volume-snapshot", "name", "", "Snapshot name required"),
    CheckCase("volume-snapshot", "volume_name", "", "Volume name required"),
    CheckCase("nested-provisioning-policy", "max_nesting_depth", 0, "Nesting depth must be 1-5"),
    CheckCase("nested-provisioning-policy", "max_nesting_depth", 6, "Nesting depth must be 1-5"),
    CheckCase("nested-provisioning-policy", "max_vms_per_parent", 0, "Max VMs must be positive"),
    CheckCase("nested-provisioning-policy", "max_cpu_per_vm", 0, "Max CPU must be positive"),
    # 001 golden images
    CheckCase("golden-image-config", "name", "", "Image name required"),
    CheckCase("golden-image-config", "name", "x" * 256, "Image name too long"),
    CheckCase("golden-image-config", "taskservs", [f"t{n}" for n in range(51)], "Too many taskservs"),
    CheckCase("golden-image-config", "disk_size_gb", 9, "Disk size must be 10-500 GB"),
    CheckCase("golden-image-config", "disk_size_gb", 501, "Disk size must be 10-500 GB"),
    CheckCase("golden-image-config", "cache_ttl_days", 0, "Cache TTL must be 1-365 days"),
    CheckCase("golden-image-config", "cache_ttl_days", 366, "Cache TTL must be 1-365 days"),
    CheckCase("golden-image-config", "build_timeout_minutes", 4, "Build timeout must be at least 5 minutes"),
    CheckCase("golden-image-config", "build_retries", -1, "Build retries must be non-negative", added=True),
    CheckCase("golden-image-build-job", "job_id", "", "Job ID required"),
    CheckCase("golden-image-build-job", "image_name", "", "Image name required"),
    CheckCase("golden-image-build-job", "progress_percent", -1, "Progress must be 0-100"),
    CheckCase("golden-image-build-job", "progress_percent", 101, "Progress must be 0-100"),
    CheckCase("golden-image-build-job", "duration_seconds", -1, "Duration must be non-negative"),
    CheckCase("golden-image-version", "image_name", "", "Image name required"),
    CheckCase("golden-image-version", "version", "", "Version required"),
    CheckCase("golden-image-version", "checksum", "a" * 63, "SHA256 checksum must be 64 characters"),
    CheckCase("golden-image-cache", "cache_id", "", "Cache ID required"),
    CheckCase("golden-image-cache", "checksum", "a" * 65, "SHA256 checksum must be 64 characters"),
    CheckCase("golden-image-cache", "access_count", -1, "Access count must be non-negative"),
    CheckCase("image-build-policy", "max_parallel_builds", 0, "Max parallel builds must be positive"),
    CheckCase("image-build-policy", "max_build_time_minutes", 4, "Max build time must be >= 5 minutes"),
    CheckCase("image-build-policy", "max_image_size_gb", 9, "Max image size must be >= 10 GB"),
    CheckCase("image-build-policy", "max_cache_size_gb", 49, "Max cache size must be >= 50 GB"),
    CheckCase("image-build-policy", "default_cache_ttl_days", 0, "Cache TTL must be >= 1 day"),
    CheckCase("image-build-policy", "min_disk_free_percent", 4, "Free percent must be 5-50%"),
    CheckCase("image-build-policy", "min_disk_free_percent", 51, "Free percent must be 5-50%"),
    CheckCase("golden-image-registry", "registry_id", "", "Registry ID required"),
    CheckCase("golden-image-registry", "location", "", "Location required"),
    # 003 OCI registry configuration
    CheckCase("oci-registry-config", "endpoint", "", "OCI registry endpoint required"),
    CheckCase("oci-registry-config", "port", 0, "Port must be 1-65535"),
    CheckCase("oci-registry-config", "port", 65536, "Port must be 1-65535"),
    CheckCase("local-oci-config", "data_dir", "", "Data directory required"),
    CheckCase("local-oci-config", "data_dir", "oci-registry", "Data dir must be absolute or home-relative path"),
    CheckCase("local-oci-config", "config_path", "", "Config path required"),
    CheckCase("local-http-config", "listen_port", 0, "Port must be 1-65535"),
    CheckCase("local-http-config", "listen_port", 65536, "Port must be 1-65535"),
    CheckCase("remote-oci-config", "timeout", 0, "Timeout must be positive"),
    CheckCase("remote-oci-config", "retries", -1, "Retries must be non-negative"),
    CheckCase("remote-oci-config", "retry_backoff", 1.0, "Backoff multiplier must be > 1.0"),
    CheckCase("rate-limit-config", "requests_per_second", 0, "Rate limit must be positive"),
    CheckCase("rate-limit-config", "burst", 0, "Burst size must be positive"),
    CheckCase("oci-namespaces", "extensions", "", "Extensions namespace required"),
    CheckCase("oci-namespaces", "kcl_packages", "", "KCL packages namespace required"),
    CheckCase("oci-namespaces", "platform_images", "", "Platform images namespace required"),
    CheckCase("oci-namespaces", "test_images", "", "Test images namespace required"),
    CheckCase("oci-namespaces", "extensions", "Provisioning_Extensions",
              "Extensions namespace must be lowercase alphanumeric with hyphens"),
    CheckCase("oci-namespaces", "kcl_packages", "kcl-",
              "KCL packages namespace must be lowercase alphanumeric with hyphens"),
    CheckCase("oci-namespaces", "platform_images", "platform.images",
              "Platform images namespace must be lowercase alphanumeric with hyphens", added=True),
    CheckCase("oci-namespaces", "test_images", "T", "Test images namespace must be lowercase alphanumeric with hyphens",
              added=True),
    CheckCase("replication-target", "name", "", "Replication target name required"),
    CheckCase("replication-target", "endpoint", "", "Replication endpoint required"),
    CheckCase("quota-config", "storage_limit_gb", 0, "Storage limit must be positive"),
    CheckCase("namespace-quota", "storage_limit_gb", 0, "Namespace storage limit must be positive"),
    CheckCase("namespace-quota", "artifact_limit", 0, "Namespace artifact limit must be positive"),
    CheckCase("oci-artifact-reference", "registry", "", "Registry required"),
    CheckCase("oci-artifact-reference", "namespace", "", "Namespace required"),
    CheckCase("oci-artifact-reference", "repository", "", "Repository required"),
    CheckCase("oci-artifact-reference", "tag", "", "Tag required"),
    CheckCase("oci-artifact-reference", "tag", ".hidden", "Invalid tag format"),
    CheckCase("oci-artifact-reference", "tag", "v" * 129, "Invalid tag format"),
    CheckCase("oci-artifact-reference", "digest", "sha256", "Invalid digest format (expected ALGORITHM:HEX, such as "
              "sha256:...)", added=True),
    CheckCase("oci-pull-policy", "cache_ttl", 0, "Cache TTL must be positive"),
    CheckCase("oci-pull-policy", "policy", "sometimes", "Invalid pull policy"),
    CheckCase("oci-push-policy", "compression_level", -1, "Compression level must be 0-9"),
    CheckCase("oci-push-policy", "compression_level", 10, "Compression level must be 0-9"),
    CheckCase("oci-registry-features", "gc_schedule", "daily at 2",
              "GC schedule must be a cron line such as '0 2 * * *'", added=True),
    CheckCase("zot-features", "scrub_interval", "daily", "Scrub interval must be a duration such as 24h or 90m",
              added=True),
    CheckCase("harbor-config", "project", "", "Harbor project required"),
]


@dataclass(frozen=True)
class RuleCase:
    """A check between fields: ``data`` breaks it, reported at ``key``."""

    kind: str
    data: dict[str, Any]
    key: str
    message: str
    schema: bool = True
    added: bool = False

    def __str__(self) -> str:
        return f"{self.kind}:{self.message[:30]}"


_LOCAL = {"data_dir": "/var/lib/registry", "config_path": "/etc/registry/config.json"}
_REGISTRY = VALID["oci-registry-config"]

RULES: list[RuleCase] = [
    RuleCase("oci-registry-config", {**_REGISTRY, "deployment": "local"}, "deployment",
             "Config must match deployment type"),
    RuleCase("oci-registry-config", {**_REGISTRY, "deployment": "remote", "local": _LOCAL}, "deployment",
             "Config must match deployment type"),
    RuleCase("zot-registry-config", {**VALID["zot-registry-config"], "deployment": "local"}, "deployment",
             "Config must match deployment type"),
    RuleCase("oci-registry-config", {**_REGISTRY, "auth_required": True, "password_path": "/run/secrets/pw"},
             "auth_required", "Authentication config required when auth enabled"),
    RuleCase("oci-registry-config", {**_REGISTRY, "tls_enabled": True, "tls_cert_path": "/etc/tls/cert.pem"},
             "tls_enabled", "TLS cert/key required for local TLS"),
    RuleCase("oci-registry-features", {"vulnerability_scanning": True}, "vulnerability_scanning",
             "Scanner type required when vulnerability scanning enabled"),
    RuleCase("oci-registry-features", {"image_signing": True}, "image_signing",
             "Signing method required when image signing enabled"),
    RuleCase("network-config", {**NETWORK, "type": "vlan"}, "type", "A VLAN network needs vlan_id", added=True),
    RuleCase("network-config", {**NETWORK, "gateway": "10.10.1.1"}, "gateway",
             "Gateway must be an IP address inside the subnet", schema=False, added=True),
    RuleCase("network-config", {**NETWORK, "dhcp_start": "10.10.0.10", "dhcp_end": "10.11.0.10"}, "dhcp_end",
             "DHCP range end must be an IP address inside the subnet", schema=False, added=True),
]

# What the rules allow, their escape hatches included: a disabled registry needs no section, remote TLS no
# client certificate.
ALLOWED: list[tuple[str, dict[str, Any]]] = [
    ("oci-registry-config", {**VALID["oci-registry-config"], "deployment": "disabled"}),
    ("oci-registry-config", {**VALID["oci-registry-config"], "deployment": "remote", "remote": {},
                             "tls_enabled": True}),
    ("oci-registry-config", {**VALID["oci-registry-config"], "auth_required": True, "auth_token_path": "/t"}),
    ("oci-registry-config", {**VALID["oci-registry-config"], "auth_required": True, "username": "ci"}),
    ("oci-registry-features", {"vulnerability_scanning": True, "scanner_type": "trivy", "image_signing": True,
                               "signing_method": "cosign"}),
    ("network-config", {"name": "v", "subnet": "10.0.0.0/24", "type": "vlan", "vlan_id": 42,
                        "gateway": "10.0.0.1", "dhcp_start": "10.0.0.100", "dhcp_end": "10.0.0.200"}),
]


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # an example used twice is written twice, each copy at its own place


def seed_yaml(data: Any) -> str:
    """``data`` written as YAML, block style, keys in the order given."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


def problems(kind: str, text: str, path: str = "seed.yml", **references: Any) -> list[UserError]:
    """Every problem reading ``text`` as ``kind``, in file order; [] when it reads."""
    try:
        validate_seed(load_yaml_text(text, path), kind, **references)
    except ParseErrors as errors:
        return errors.errors
    except UserError as error:
        return [error]
    return []


def messages(kind: str, text: str, **references: Any) -> list[str]:
    return [error.message for error in problems(kind, text, **references)]


def read(kind: str, text: str, **references: Any) -> Any:
    """``text`` read as ``kind``; fails the test, listing every problem, when it does not read."""
    try:
        return validate_seed(load_yaml_text(text, "seed.yml"), kind, **references)
    except UserError as error:
        raise AssertionError(error.render(with_excerpt=False)) from None
