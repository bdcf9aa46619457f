"""Golden image schemas (001): fields, defaults, types, and the examples of the original."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.platform_specs.examples import SHA256, VALID, WHEN, messages, problems, read, seed_yaml


def values(model: Any) -> dict[str, Any]:
    return {name: getattr(model, name) for name in type(model).model_fields if name != "position"}


def test_golden_image_defaults() -> None:
    assert values(read("golden-image-config", "name: base\n")) == {
        "name": "base", "description": None, "base_os": "ubuntu", "os_version": "22.04", "arch": "x86_64",
        "taskservs": None, "taskserv_versions": None, "exclude_taskservs": None, "optimize": False,
        "include_dev_tools": False, "include_kernel_headers": False, "cleanup_package_manager": True,
        "disk_size_gb": 30, "disk_format": "qcow2", "compression": True, "cache_enabled": True, "cache_ttl_days": 30,
        "cache_storage": None, "network_config": None, "dns_servers": None, "security_hardening": False,
        "auto_updates": True, "ssh_public_keys": None, "build_timeout_minutes": 30, "build_retries": 3,
        "parallel_builds": False,
    }


@pytest.mark.parametrize("text", [
    # The two examples of GoldenImageConfig's own documentation.
    "name: web-server-golden\nbase_os: ubuntu\nos_version: '22.04'\narch: x86_64\n"
    "taskservs: [nginx, postgresql, redis]\ndisk_size_gb: 30\noptimize: true\n",
    "name: k8s-node\nbase_os: ubuntu\nos_version: '22.04'\ntaskservs: [containerd, kubernetes, cilium]\n"
    "disk_size_gb: 50\ncache_enabled: true\ncache_ttl_days: 30\n",
])
def test_the_original_golden_image_examples_read(text: str) -> None:
    assert read("golden-image-config", text).taskservs


def test_an_unquoted_os_version_is_a_number_not_the_version_written() -> None:
    # YAML reads 20.10 as the number 20.1: refusing it beats building the wrong release.
    assert messages("golden-image-config", "name: old\nos_version: 20.10\n") == ["expected a string, got 20.1"]


def test_build_job_version_cache_steps_and_policy_defaults() -> None:
    job = read("golden-image-build-job", seed_yaml(VALID["golden-image-build-job"]))
    assert (job.status, job.retry_count, job.image_config.disk_size_gb) == ("queued", 0, 30)
    version = read("golden-image-version", seed_yaml(VALID["golden-image-version"]))
    assert (version.usage_count, version.deprecated, version.build_number) == (0, False, None)
    cache = read("golden-image-cache", seed_yaml(VALID["golden-image-cache"]))
    assert (cache.storage_format, cache.is_valid, cache.access_count, cache.hit_count) == ("qcow2", True, 0, 0)
    steps = values(read("image-build-steps", "{}"))
    assert [name for name, value in steps.items() if value is False] == [
        "parallel_install", "apply_security_hardening", "apply_optimizations"]
    assert [name for name, value in steps.items() if value is None] == ["install_order", "test_scripts"]
    assert values(read("image-build-policy", "cache_location: /var/cache/images\n")) == {
        "default_os": "ubuntu", "default_version": "22.04", "default_arch": "x86_64", "default_disk_size_gb": 30,
        "max_parallel_builds": 3, "max_build_time_minutes": 60, "max_image_size_gb": 100, "cache_enabled": True,
        "cache_location": "/var/cache/images", "default_cache_ttl_days": 30, "max_cache_size_gb": 500,
        "auto_cleanup_expired": True, "cleanup_interval_hours": 24, "min_disk_free_percent": 10,
        "auto_create_versions": True, "version_naming": "semantic", "default_optimize": False,
        "default_compression": True, "default_security_hardening": False,
    }


@pytest.mark.parametrize(("kind", "data", "message"), [
    ("golden-image-config", {"name": "x", "base_os": "arch"},
     "expected 'ubuntu', 'debian', 'centos', 'fedora' or 'rhel', got 'arch'"),
    ("golden-image-config", {"name": "x", "arch": "riscv64"}, "expected 'x86_64', 'aarch64' or 'arm64', got 'riscv64'"),
    ("golden-image-config", {"name": "x", "disk_format": "vdi"}, "expected 'qcow2', 'raw' or 'vmdk', got 'vdi'"),
    ("golden-image-build-job", {**VALID["golden-image-build-job"], "status": "done"},
     "expected 'queued', 'building', 'testing', 'caching', 'completed' or 'failed', got 'done'"),
    ("golden-image-cache", {**VALID["golden-image-cache"], "storage_format": "vmdk"},
     "expected 'qcow2', 'raw' or 'compressed', got 'vmdk'"),
    ("image-build-policy", {"cache_location": "/c", "version_naming": "random"},
     "expected 'semantic', 'timestamp' or 'sequential', got 'random'"),
    ("image-build-policy", {}, "missing required keyword 'cache_location'"),
    ("golden-image-build-job", {**VALID["golden-image-build-job"], "image_config": {"name": ""}},
     "Image name required"),
])
def test_values_outside_the_schema_say_what_was_expected(kind: str, data: dict, message: str) -> None:
    assert messages(kind, seed_yaml(data)) == [message]


def test_a_registry_holds_images_by_name_with_their_versions_builds_cache_and_policy() -> None:
    registry = read("golden-image-registry", seed_yaml({
        **VALID["golden-image-registry"],
        "images": {"k8s-node": {"name": "k8s-node", "taskservs": ["containerd", "kubernetes"]}},
        "versions": [VALID["golden-image-version"]],
        "builds": [{**VALID["golden-image-build-job"], "status": "completed", "progress_percent": 100}],
        "cache": [VALID["golden-image-cache"]],
        "policy": {"cache_location": "/var/cache/images", "max_parallel_builds": 5},
    }))
    assert registry.images["k8s-node"].taskservs == ["containerd", "kubernetes"]
    assert registry.versions[0].checksum == SHA256
    assert registry.builds[0].status == "completed"
    assert registry.policy.max_parallel_builds == 5
    assert registry.created_at.isoformat() == WHEN.replace("Z", "+00:00")


def test_problems_inside_a_registry_are_all_reported_where_they_are() -> None:
    text = seed_yaml({**VALID["golden-image-registry"],
                      "images": {"a": {"name": "a", "disk_size_gb": 5}},
                      "versions": [{**VALID["golden-image-version"], "checksum": "abc"}],
                      "policy": {"cache_location": "/c", "min_disk_free_percent": 90}})
    lines = text.splitlines()
    found = [(lines[error.position.line - 1].split(":")[0].strip(), error.message)
             for error in problems("golden-image-registry", text)]
    assert found == [("disk_size_gb", "Disk size must be 10-500 GB"),
                     ("checksum", "SHA256 checksum must be 64 characters"),
                     ("min_disk_free_percent", "Free percent must be 5-50%")]
