"""Golden images: pre-built VM disk images with taskservs installed, their build jobs, versions, cache entries,
build steps, build policy, and the registry that holds them all.

Every field, default and check of the original schemas, with their check messages word for word. Times are
ISO 8601 timestamps (text in the original). Added: ``build_retries`` cannot be negative. Names that refer to
other entries (an image's taskservs, a version's build job, a cache entry's version) are checked by
``runner.platform_specs.references``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from runner.platform_specs.base import SeedModel
from runner.platform_specs.checks import above, at_least, at_most_chars, at_most_items, between, exact_chars, non_empty
from runner.platform_specs.types import Timestamp, YamlBool

Sha256 = Annotated[str, exact_chars(64, "SHA256 checksum must be 64 characters")]


class GoldenImageConfig(SeedModel):
    """Golden image definition with pre-installed taskservs and configuration. A golden image is a pre-built,
    pre-configured VM disk image that includes: the base OS (Ubuntu, Debian, CentOS, etc.), pre-installed
    taskservs (Kubernetes, Docker, etc.) and optimized configuration, for ~5x faster VM startup (image vs base
    OS)."""

    KIND = "golden image"

    name: Annotated[str, non_empty("Image name required"), at_most_chars(255, "Image name too long")] = Field(
        description="Image name (unique)")
    description: str | None = Field(None, description="Image description")
    base_os: Literal["ubuntu", "debian", "centos", "fedora", "rhel"] = "ubuntu"
    os_version: str = Field("22.04", description="OS version (22.04, 20.04, etc.)")
    arch: Literal["x86_64", "aarch64", "arm64"] = Field("x86_64", description="CPU architecture")
    taskservs: Annotated[list[str], at_most_items(50, "Too many taskservs")] | None = Field(
        None, description="Taskservs to pre-install")
    taskserv_versions: dict[str, str] | None = Field(None, description="Taskserv version pinning")
    exclude_taskservs: list[str] | None = Field(None, description="Taskservs to exclude")
    optimize: YamlBool | None = Field(False, description="Run optimizations")
    include_dev_tools: YamlBool | None = Field(False, description="Include development tools")
    include_kernel_headers: YamlBool | None = Field(False, description="Include kernel headers")
    cleanup_package_manager: YamlBool | None = Field(True, description="Cleanup apt/yum caches")
    disk_size_gb: Annotated[int, between(10, 500, "Disk size must be 10-500 GB")] | None = Field(
        30, description="Disk size (10-500 GB)")
    disk_format: Literal["qcow2", "raw", "vmdk"] | None = Field("qcow2", description="Disk format")
    compression: YamlBool | None = Field(True, description="Enable compression")
    cache_enabled: YamlBool | None = Field(True, description="Cache built images")
    cache_ttl_days: Annotated[int, between(1, 365, "Cache TTL must be 1-365 days")] | None = Field(
        30, description="Cache validity period")
    cache_storage: str | None = Field(None, description="Custom cache path")
    network_config: str | None = Field(None, description="Cloud-init network config")
    dns_servers: list[str] | None = Field(None, description="Custom DNS servers")
    security_hardening: YamlBool | None = Field(False, description="Apply security hardening")
    auto_updates: YamlBool | None = Field(True, description="Enable automatic updates")
    ssh_public_keys: list[str] | None = Field(None, description="Pre-loaded SSH keys")
    build_timeout_minutes: Annotated[int, at_least(5, "Build timeout must be at least 5 minutes")] | None = Field(
        30, description="Build timeout")
    build_retries: Annotated[int, at_least(0, "Build retries must be non-negative")] | None = Field(  # added
        3, description="Retry failed builds")
    parallel_builds: YamlBool | None = Field(False, description="Allow parallel builds")


class GoldenImageBuildJob(SeedModel):
    """Represents an in-progress or completed golden image build job. Tracks build status, progress, logs, and
    artifacts."""

    KIND = "build job"

    job_id: Annotated[str, non_empty("Job ID required")] = Field(description="Unique job identifier")
    image_name: Annotated[str, non_empty("Image name required")] = Field(description="Image being built")
    image_version: str = Field(description="Image version")
    image_config: GoldenImageConfig = Field(description="Build configuration")
    status: Literal["queued", "building", "testing", "caching", "completed", "failed"] = "queued"
    started_at: Timestamp | None = Field(None, description="Build start time (ISO 8601)")
    completed_at: Timestamp | None = Field(None, description="Build completion time")
    duration_seconds: Annotated[int, at_least(0, "Duration must be non-negative")] | None = Field(
        None, description="Build duration")
    progress_percent: Annotated[int, between(0, 100, "Progress must be 0-100")] | None = Field(
        None, description="Build progress (0-100)")
    current_step: str | None = Field(None, description="Current build step")
    current_step_progress: int | None = Field(None, description="Step progress (0-100)")
    output_path: str | None = Field(None, description="Path to built image")
    image_size_gb: float | None = Field(None, description="Final image size")
    checksum: str | None = Field(None, description="SHA256 checksum")
    error_message: str | None = Field(None, description="Error message if failed")
    retry_count: int | None = Field(0, description="Retry attempts")
    last_error: str | None = Field(None, description="Last error encountered")
    build_log_path: str | None = Field(None, description="Path to build log")
    test_log_path: str | None = Field(None, description="Path to test log")


class GoldenImageVersion(SeedModel):
    """Version metadata for a golden image with tracking and rollback support. Enables image versioning,
    rollback to previous versions, and tracking of which VMs use which versions."""

    KIND = "image version"

    image_name: Annotated[str, non_empty("Image name required")] = Field(description="Image name")
    version: Annotated[str, non_empty("Version required")] = Field(description="Semantic version (1.0.0)")
    build_number: int | None = Field(None, description="Build number for same version")
    created_at: Timestamp = Field(description="Creation timestamp (ISO 8601)")
    created_by: str | None = Field(None, description="User who created")
    description: str | None = Field(None, description="Version description")
    image_path: str = Field(description="Path to image file")
    image_size_gb: float = Field(description="Image file size")
    checksum: Sha256 = Field(description="SHA256 checksum")
    base_image_version: str | None = Field(None, description="Base image version used")
    taskserv_versions: dict[str, str] | None = Field(None, description="Taskserv versions included")
    build_job_id: str | None = Field(None, description="Build job that created this")
    usage_count: int | None = Field(0, description="Number of VMs using")
    vm_instances: list[str] | None = Field(None, description="VMs using this version")
    last_used_at: Timestamp | None = Field(None, description="Last VM creation time")
    deprecated: YamlBool | None = Field(False, description="Mark as deprecated")
    replacement_version: str | None = Field(None, description="Recommended replacement")


class GoldenImageCache(SeedModel):
    """Image cache metadata and management. Tracks cached images, storage locations, and cleanup policies."""

    KIND = "cache entry"

    cache_id: Annotated[str, non_empty("Cache ID required")] = Field(description="Cache identifier")
    image_name: str = Field(description="Cached image name")
    image_version: str = Field(description="Image version")
    storage_path: str = Field(description="Local cache path")
    storage_format: Literal["qcow2", "raw", "compressed"] = "qcow2"
    disk_size_gb: float = Field(description="Disk space used")
    cached_at: Timestamp = Field(description="When cached (ISO 8601)")
    accessed_at: Timestamp | None = Field(None, description="Last access time")
    expires_at: Timestamp | None = Field(None, description="Cache expiration time")
    ttl_days: int | None = Field(None, description="Time-to-live in days")
    is_valid: YamlBool = Field(True, description="Cache is still valid")
    checksum: Sha256 = Field(description="SHA256 checksum")
    last_verification: Timestamp | None = Field(None, description="Last verification time")
    access_count: Annotated[int, at_least(0, "Access count must be non-negative")] | None = Field(
        0, description="Number of uses")
    hit_count: int | None = Field(0, description="Cache hits")
    last_vm_created: str | None = Field(None, description="Last VM from cache")


class ImageBuildSteps(SeedModel):
    """Detailed build step definitions for golden image construction."""

    KIND = "build steps"

    prepare_base: YamlBool | None = Field(True, description="Prepare base OS")
    update_packages: YamlBool | None = Field(True, description="Update packages")
    install_dependencies: YamlBool | None = Field(True, description="Install dependencies")
    install_taskservs: YamlBool | None = Field(True, description="Install taskservs")
    install_order: list[str] | None = Field(None, description="Installation order")
    parallel_install: YamlBool | None = Field(False, description="Parallel installation")
    apply_config: YamlBool | None = Field(True, description="Apply configuration")
    apply_security_hardening: YamlBool | None = Field(False, description="Security hardening")
    apply_optimizations: YamlBool | None = Field(False, description="Performance optimizations")
    run_tests: YamlBool | None = Field(True, description="Run tests")
    test_scripts: list[str] | None = Field(None, description="Custom test scripts")
    cleanup_caches: YamlBool | None = Field(True, description="Cleanup package caches")
    cleanup_temp_files: YamlBool | None = Field(True, description="Cleanup temp files")
    remove_build_artifacts: YamlBool | None = Field(True, description="Remove build artifacts")
    compress_image: YamlBool | None = Field(True, description="Compress final image")
    generate_checksums: YamlBool | None = Field(True, description="Generate checksums")
    verify_image: YamlBool | None = Field(True, description="Verify image integrity")


class ImageBuildPolicy(SeedModel):
    """Global policy for image building and caching."""

    KIND = "build policy"

    default_os: str = "ubuntu"
    default_version: str = "22.04"
    default_arch: str = "x86_64"
    default_disk_size_gb: int = 30
    max_parallel_builds: Annotated[int, above(0, "Max parallel builds must be positive")] = Field(
        3, description="Max concurrent builds")
    max_build_time_minutes: Annotated[int, at_least(5, "Max build time must be >= 5 minutes")] = Field(
        60, description="Maximum build time")
    max_image_size_gb: Annotated[int, at_least(10, "Max image size must be >= 10 GB")] = Field(
        100, description="Maximum image size")
    cache_enabled: YamlBool = True
    cache_location: str = Field(description="Cache directory path")
    default_cache_ttl_days: Annotated[int, at_least(1, "Cache TTL must be >= 1 day")] = 30
    max_cache_size_gb: Annotated[int, at_least(50, "Max cache size must be >= 50 GB")] = Field(
        500, description="Max cache disk space")
    auto_cleanup_expired: YamlBool = Field(True, description="Auto-cleanup old caches")
    cleanup_interval_hours: int = 24
    min_disk_free_percent: Annotated[int, between(5, 50, "Free percent must be 5-50%")] = Field(
        10, description="Keep 10% free")
    auto_create_versions: YamlBool = Field(True, description="Auto-version builds")
    # A plain string in the original whose comment lists its values.
    version_naming: Literal["semantic", "timestamp", "sequential"] = Field(
        "semantic", description="semantic, timestamp, sequential")
    default_optimize: YamlBool = False
    default_compression: YamlBool = True
    default_security_hardening: YamlBool = False


class GoldenImageRegistry(SeedModel):
    """Registry of all golden images with versions and metadata: images, build jobs and cache entries."""

    KIND = "golden image registry"

    registry_id: Annotated[str, non_empty("Registry ID required")] = Field(description="Registry identifier")
    location: Annotated[str, non_empty("Location required")] = Field(description="Registry storage path")
    created_at: Timestamp = Field(description="Creation timestamp")
    images: dict[str, GoldenImageConfig] = Field(description="Images by name")
    versions: list[GoldenImageVersion] = Field(description="All versions")
    builds: list[GoldenImageBuildJob] = Field(description="Build history")
    cache: list[GoldenImageCache] = Field(description="Cached images")
    policy: ImageBuildPolicy = Field(description="Build policy")
    policy_version: str | None = Field(None, description="Policy version")
    total_images: int | None = Field(None, description="Total unique images")
    total_versions: int | None = Field(None, description="Total versions")
    total_cached_gb: float | None = Field(None, description="Total cache size")
    total_builds: int | None = Field(None, description="Build count")


GOLDEN_IMAGE_SCHEMAS: tuple[type[SeedModel], ...] = (
    GoldenImageConfig, GoldenImageBuildJob, GoldenImageVersion, GoldenImageCache, ImageBuildSteps,
    ImageBuildPolicy, GoldenImageRegistry,
)
