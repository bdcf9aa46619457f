"""Nested provisioning schemas (000): fields, defaults, types, and the examples of the original."""

from __future__ import annotations

import textwrap
from datetime import UTC, datetime
from typing import Any

import pytest

import runner.platform_specs.document as document_module
from runner.platform_specs import NestedProvisioning
from tests.unit.platform_specs.examples import VALID, messages, read, seed_yaml


def values(model: Any) -> dict[str, Any]:
    return {name: getattr(model, name) for name in type(model).model_fields if name != "position"}


def test_volume_defaults() -> None:
    assert values(read("volume-config", seed_yaml(VALID["volume-config"]))) == {
        "name": "data", "description": None, "type": "local", "size_gb": None, "mount_path": "/data",
        "readonly": False, "mount_mode": "755", "host": None, "path": None, "username": None, "password": None,
        "bucket": None, "provider": "aws", "region": None, "iops": None, "throughput_mbps": None,
    }


def test_network_defaults() -> None:
    assert values(read("network-config", seed_yaml(VALID["network-config"]))) == {
        "name": "front", "description": None, "type": "bridge", "vlan_id": None, "subnet": "10.10.0.0/24",
        "gateway": None, "dns_servers": None, "mtu": 1500, "dhcp_enabled": True, "dhcp_start": None,
        "dhcp_end": None, "allow_outbound": True, "allow_inbound": False, "rules": None,
        "bandwidth_limit_mbps": None, "latency_ms": None,
    }


def test_nested_vm_defaults() -> None:
    assert values(read("nested-vm-config", seed_yaml(VALID["nested-vm-config"]))) == {
        "name": "vm-1", "description": None, "parent_vm": "host-1", "cpu": 2, "memory_mb": 2048, "disk_gb": 20,
        "nested_virt": True, "base_image": "ubuntu-22.04", "from_golden_image": None, "networks": [],
        "static_ip": None, "dns": None, "volumes": None, "extra_disks": None, "auto_start": False,
        "start_order": 100, "restart_policy": "always",
    }


def test_container_defaults() -> None:
    assert values(read("container-config", seed_yaml(VALID["container-config"]))) == {
        "name": "web-1", "image": "nginx", "tag": "latest", "parent_vm": "vm-1", "runtime": "containerd",
        "cpu_millicores": 1000, "memory_mb": 512, "disk_gb": 10, "networks": None, "expose_ports": None,
        "environment": None, "volumes": None, "tmpfs": None, "auto_start": False, "restart_policy": "unless-stopped",
        "health_check": None,
    }


def test_deployment_policy_snapshot_and_nesting_policy_defaults() -> None:
    deployment = read("multi-tier-deployment", seed_yaml(VALID["multi-tier-deployment"]))
    assert (deployment.version, deployment.replicas, deployment.strategy, deployment.health_check_interval) == (
        "1.0.0", 1, "rolling", 30)
    policy = read("network-policy", seed_yaml(VALID["network-policy"]))
    assert (policy.direction, policy.protocol, policy.action, policy.priority) == ("both", "all", "allow", 100)
    snapshot = read("volume-snapshot", seed_yaml(VALID["volume-snapshot"]))
    assert (snapshot.retention_days, snapshot.auto_delete) == (30, True)
    assert snapshot.created_at == datetime(2025, 10, 6, 12, tzinfo=UTC)
    assert values(read("nested-provisioning-policy", "{}")) == {
        "max_nesting_depth": 3, "max_vms_per_parent": 10, "max_containers_per_vm": 50, "max_cpu_per_vm": 16,
        "max_memory_per_vm": 32768, "max_disk_per_vm": 500, "default_network_type": "bridge", "enable_ipv6": False,
        "enable_vlan_tagging": False, "default_volume_type": "local", "snapshot_retention_days": 30,
        "enable_security_hardening": True, "enable_network_isolation": True, "require_auth_between_tiers": False,
    }


@pytest.mark.parametrize("text", [
    # The two examples of VolumeConfig's own documentation.
    "name: data-volume\ntype: local\nsize_gb: 100\nmount_path: /data\nreadonly: false\n",
    "name: shared-storage\ntype: nfs\nhost: storage.example.com\npath: /exports/shared\nmount_path: /mnt/shared\n",
])
def test_the_original_volume_examples_read(text: str) -> None:
    assert read("volume-config", text).mount_path.startswith("/")


@pytest.mark.parametrize(("kind", "text", "message"), [
    ("volume-config", "name: d\nmount_path: /d\ntype: ceph\n",
     "expected 'local', 'nfs', 'cifs', 'cloud' or 'host', got 'ceph'"),
    ("network-config", "name: n\nsubnet: 10.0.0.0/8\ntype: macvlan\n",
     "expected 'bridge', 'overlay', 'host' or 'vlan', got 'macvlan'"),
    ("nested-vm-config", "name: v\nparent_vm: p\nnetworks: []\nrestart_policy: unless-stopped\n",
     "expected 'no', 'always' or 'on-failure', got 'unless-stopped'"),
    ("container-config", "name: c\nimage: i\nparent_vm: p\nrestart_policy: on-failure\n",
     "expected 'no', 'unless-stopped' or 'always', got 'on-failure'"),
    ("container-config", "name: c\nimage: i\nparent_vm: p\nruntime: lxc\n",
     "expected 'docker', 'podman' or 'containerd', got 'lxc'"),
    ("multi-tier-deployment", seed_yaml({**VALID["multi-tier-deployment"], "strategy": "big-bang"}),
     "expected 'rolling', 'blue-green' or 'canary', got 'big-bang'"),
    ("network-policy", "name: p\nprotocol: sctp\n", "expected 'tcp', 'udp', 'icmp' or 'all', got 'sctp'"),
    ("nested-provisioning-policy", "default_volume_type: ceph\n",
     "expected 'local', 'nfs', 'cifs', 'cloud' or 'host', got 'ceph'"),
    # Typed values are not converted between kinds: a number for a string, text for a number.
    ("nested-vm-config", "name: v\nparent_vm: p\nnetworks: []\ncpu: '4'\n", "expected an integer, got '4'"),
    ("nested-vm-config", "name: v\nparent_vm: p\nnetworks: []\ncpu: 2.5\n", "expected an integer, got 2.5"),
    ("container-config", "name: c\nimage: i\nparent_vm: p\ntag: 1.25\n", "expected a string, got 1.25"),
    ("container-config", "name: c\nimage: i\nparent_vm: p\nenvironment: {PORT: 8080}\n",
     "expected a string, got 8080"),
    ("nested-vm-config", "name: v\nparent_vm: p\nnetworks: front\n", "expected a list, got 'front'"),
    ("volume-config", "name: d\nmount_path: /d\nreadonly: maybe\n", "expected a boolean (true/false), got 'maybe'"),
    ("volume-snapshot", seed_yaml({**VALID["volume-snapshot"], "created_at": "yesterday"}),
     "expected an ISO 8601 timestamp such as 2025-10-06T12:00:00Z, got 'yesterday'"),
    ("nested-vm-config", "parent_vm: p\nnetworks: []\n", "missing required keyword 'name'"),
])
def test_values_of_the_wrong_kind_say_what_was_expected(kind: str, text: str, message: str) -> None:
    assert messages(kind, text) == [message]


def test_yes_and_no_read_as_booleans_and_timestamps_as_written_or_as_yaml_reads_them() -> None:
    volume = read("volume-config", "name: d\nmount_path: /d\nreadonly: yes\n")
    assert volume.readonly is True
    snapshot = read("volume-snapshot", "name: s\nvolume_name: d\ncreated_at: 2025-10-06\nsize_gb: 1\nchecksum: x\n")
    assert snapshot.created_at == datetime(2025, 10, 6)
    assert snapshot.size_gb == 1.0


def test_port_mappings_have_integer_ports_written_as_numbers_or_digit_strings() -> None:
    container = read("container-config", "name: c\nimage: i\nparent_vm: p\n"
                                         "expose_ports: [{8080: 80}, {'8443': 443}]\n")
    assert container.expose_ports == [{8080: 80}, {8443: 443}]
    assert messages("container-config", "name: c\nimage: i\nparent_vm: p\nexpose_ports: [{http: 80}]\n") == [
        "expected an integer, got 'http'"]


def test_the_document_example_in_the_documentation_reads() -> None:
    example = textwrap.dedent((document_module.__doc__ or "").split("::\n", 1)[1])
    document = read("nested-provisioning", example)
    assert isinstance(document, NestedProvisioning)
    assert [stack.name for stack in document.deployments] == ["web"]
    assert document.policy.max_nesting_depth == 3
    assert document.golden_images[0].taskservs == ["containerd", "kubernetes"]
