"""OCI registry configuration schemas (003): fields, defaults, Zot and Harbor, computed defaults, and the
examples of the original."""

from __future__ import annotations

from typing import Any

import pytest

from runner.platform_specs import HarborRegistryConfig, OCIRegistryConfig, ZotRegistryConfig
from tests.unit.platform_specs.examples import VALID, messages, problems, read, seed_yaml

LOCAL_EXAMPLE = """\
deployment: local
type: zot
endpoint: localhost
port: 5000
tls_enabled: false
local:
  data_dir: ~/.provisioning/oci-registry
  config_path: ~/.provisioning/oci-registry/config.json
"""
REMOTE_EXAMPLE = """\
deployment: remote
type: harbor
endpoint: harbor.company.local
tls_enabled: true
auth_required: true
remote:
  verify_ssl: true
"""


def values(model: Any) -> dict[str, Any]:
    return {name: getattr(model, name) for name in type(model).model_fields if name != "position"}


def test_the_original_examples_fail_as_they_do_in_the_original() -> None:
    # Both leave out the required namespaces; the remote one also enables auth with neither user nor token.
    assert messages("oci-registry-config", LOCAL_EXAMPLE) == ["missing required keyword 'namespaces'"]
    assert messages("oci-registry-config", REMOTE_EXAMPLE) == ["missing required keyword 'namespaces'"]
    assert messages("oci-registry-config", REMOTE_EXAMPLE + "namespaces: {}\n") == [
        "Authentication config required when auth enabled"]


def test_the_original_examples_read_once_complete() -> None:
    local = read("oci-registry-config", LOCAL_EXAMPLE + "namespaces: {}\n")
    assert isinstance(local, ZotRegistryConfig)
    assert local.local.log_file == "~/.provisioning/oci-registry/registry.log"
    remote = read("oci-registry-config", REMOTE_EXAMPLE + "namespaces: {}\nusername: ci\n")
    assert isinstance(remote, HarborRegistryConfig)
    assert (remote.remote.timeout, remote.remote.retries, remote.remote.retry_backoff) == (30, 3, 2.0)


def test_registry_defaults() -> None:
    config = read("oci-registry-config", seed_yaml(VALID["oci-registry-config"]))
    assert type(config) is OCIRegistryConfig
    assert (config.port, config.tls_enabled, config.auth_required, config.local, config.remote, config.features) == (
        5000, False, False, None, None, None)
    assert config.namespaces.names() == [
        "provisioning-extensions", "provisioning-kcl", "provisioning-platform", "provisioning-test"]


def test_local_and_remote_section_defaults() -> None:
    assert values(read("local-http-config", "{}")) == {
        "listen_address": "127.0.0.1", "listen_port": 5000, "read_timeout": 60, "write_timeout": 60,
        "idle_timeout": 120}
    assert values(read("local-storage-config", "{}")) == {
        "backend": "filesystem", "rootdirectory": None, "gc_enabled": True, "gc_interval": 3600,
        "dedupe_enabled": True}
    assert values(read("remote-oci-config", "{}")) == {
        "timeout": 30, "retries": 3, "retry_delay": 5, "retry_backoff": 2.0, "verify_ssl": True,
        "http_proxy": None, "https_proxy": None, "no_proxy": None, "rate_limit": None}
    assert values(read("rate-limit-config", "{}")) == {
        "requests_per_second": 10, "burst": 20, "pull_limit": None, "push_limit": None}


def test_feature_quota_policy_zot_and_harbor_defaults() -> None:
    features = read("oci-registry-features", "{}")
    assert (features.vulnerability_scanning, features.image_signing, features.replication_enabled,
            features.quota_enabled, features.webhook_enabled, features.gc_enabled, features.gc_schedule) == (
        False, False, False, False, False, True, "0 2 * * *")
    quota = read("quota-config", "{}")
    assert (quota.storage_limit_gb, quota.artifact_limit, quota.namespace_quotas) == (100, 10000, None)
    assert values(read("namespace-quota", "{}")) == {"storage_limit_gb": 50, "artifact_limit": 1000}
    assert values(read("oci-pull-policy", "{}")) == {
        "policy": "if-not-present", "cache_ttl": 3600, "verify_cached": True, "allow_insecure": False}
    assert values(read("oci-push-policy", "{}")) == {
        "allow_overwrite": False, "require_signing": False, "auto_tag": True, "tag_format": "v{version}-{timestamp}",
        "compression_enabled": True, "compression_level": 6}
    assert values(read("zot-features", "{}")) == {
        "search_enabled": True, "metrics_enabled": True, "metrics_port": 9090, "sync_enabled": False,
        "sync_registries": None, "scrub_enabled": True, "scrub_interval": "24h"}
    assert values(read("harbor-config", "project: p\n")) == {
        "project": "p", "public_project": False, "content_trust": False, "auto_scan": True,
        "prevent_vulnerable": True, "severity_threshold": "high"}
    assert read("replication-target", seed_yaml(VALID["replication-target"])).verify_ssl is True


def test_the_log_file_defaults_to_the_data_dir_and_a_given_one_is_kept() -> None:
    assert read("local-oci-config", "data_dir: /srv/oci\nconfig_path: /srv/oci/c.json\n").log_file == (
        "/srv/oci/registry.log")
    given = read("local-oci-config", "data_dir: /srv/oci\nconfig_path: /c.json\nlog_file: /var/log/oci.log\n")
    assert given.log_file == "/var/log/oci.log"


@pytest.mark.parametrize(("extra", "reference"), [
    ({}, "localhost:5000/provisioning-extensions/kubernetes:latest"),
    ({"tag": "1.28.0"}, "localhost:5000/provisioning-extensions/kubernetes:1.28.0"),
    ({"tag": "1.28.0", "digest": "sha256:" + "0" * 64},
     "localhost:5000/provisioning-extensions/kubernetes:1.28.0@sha256:" + "0" * 64),
    ({"full_reference": "mirror/kubernetes:1.28.0"}, "mirror/kubernetes:1.28.0"),
])
def test_the_full_reference_is_computed_unless_given(extra: dict, reference: str) -> None:
    data = {**VALID["oci-artifact-reference"], **extra}
    assert read("oci-artifact-reference", seed_yaml(data)).full_reference == reference


def test_a_registry_is_read_as_the_model_its_type_names() -> None:
    zot = read("oci-registry-config", seed_yaml({**VALID["oci-registry-config"], "type": "zot",
                                                 "zot_features": {"sync_enabled": True}}))
    assert isinstance(zot, ZotRegistryConfig) and zot.zot_features.sync_enabled
    harbor = read("oci-registry-config", seed_yaml({**VALID["oci-registry-config"], "type": "harbor",
                                                    "harbor_config": {"project": "infra"}}))
    assert isinstance(harbor, HarborRegistryConfig) and harbor.harbor_config.project == "infra"
    assert isinstance(read("zot-registry-config", seed_yaml(VALID["zot-registry-config"])), ZotRegistryConfig)


@pytest.mark.parametrize(("kind", "data", "message", "hint"), [
    ("oci-registry-config", {**VALID["oci-registry-config"], "type": "harbor", "zot_features": {}},
     "'zot_features' is not a valid Harbor registry keyword", "did you mean 'features'?"),
    ("oci-registry-config", {**VALID["oci-registry-config"], "harbor_config": {"project": "p"}},
     "'harbor_config' is not a valid OCI registry keyword", None),
    ("zot-registry-config", {**VALID["zot-registry-config"], "type": "harbor"}, "expected 'zot', got 'harbor'", None),
    ("oci-registry-config", {**VALID["oci-registry-config"], "type": "quay"},
     "expected 'distribution', 'zot', 'harbor' or 'artifactory', got 'quay'", None),
    ("oci-registry-config", {**VALID["oci-registry-config"], "namespace": {}},
     "'namespace' is not a valid OCI registry keyword", "did you mean 'namespaces'?"),
    ("oci-registry-features", {"scanner_type": "snyk"}, "expected 'trivy', 'clair' or 'anchore', got 'snyk'", None),
    ("oci-registry-features", {"signing_method": "gpg"}, "expected 'notary' or 'cosign', got 'gpg'", None),
    ("replication-target", {**VALID["replication-target"], "type": "quay"},
     "expected 'harbor', 'docker-hub', 'aws-ecr', 'azure-acr' or 'google-gcr', got 'quay'", None),
    ("harbor-config", {"project": "p", "severity_threshold": "none"},
     "expected 'critical', 'high', 'medium' or 'low', got 'none'", None),
    ("local-storage-config", {"backend": "gcs"}, "expected 'filesystem', 's3' or 'azure', got 'gcs'", None),
])
def test_what_a_registry_type_does_not_have_is_an_error(kind: str, data: dict, message: str,
                                                        hint: str | None) -> None:
    [error] = problems(kind, seed_yaml(data))
    assert (error.message, error.hint) == (message, hint)


def test_every_namespace_of_a_custom_map_is_checked_and_reported_at_its_value() -> None:
    text = "custom:\n  team-a: team-a\n  team_b: Team_B\n"
    [error] = problems("oci-namespaces", text)
    assert error.message == "Custom namespace must be lowercase alphanumeric with hyphens"
    assert (error.position.line, error.position.column) == (3, 11)


@pytest.mark.parametrize("schedule", ["0 2 * * *", "*/15 0-6 1,15 jan-jun mon-fri", "@daily", "0 0 * * 7"])
def test_cron_lines_read(schedule: str) -> None:
    assert read("oci-registry-features", seed_yaml({"gc_schedule": schedule})).gc_schedule == schedule


@pytest.mark.parametrize("schedule", ["61 * * * *", "0 2 * *", "0 2 * * * *", "5-1 * * * *", "*/0 * * * *"])
def test_bad_cron_lines_are_errors(schedule: str) -> None:
    assert messages("oci-registry-features", seed_yaml({"gc_schedule": schedule})) == [
        "GC schedule must be a cron line such as '0 2 * * *'"]
