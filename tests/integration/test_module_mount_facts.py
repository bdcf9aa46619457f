"""mount_facts on a test host: its own mounts from /proc/mounts with sizes, an fstab of the test's own as a
static source (octal escapes, UUID=), filters, aggregate mounts, and the mount command as a source."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost

FSTAB = "/tmp/provisioning-test-fstab"


@pytest.fixture
def fstab(host: RemoteHost) -> Iterator[str]:
    host.shell(f"printf '# test fstab\\nUUID=0000-TEST /data ext4 defaults 0 2\\n"
               f"/dev/sdz1 /with\\\\040space xfs noatime 0 0\\ntmpfs /tmp tmpfs rw 0 0\\n' > {FSTAB}")
    yield FSTAB
    host.shell(f"rm -f {FSTAB}")


def test_root_from_proc_mounts_with_sizes(host: RemoteHost) -> None:
    result = host.run("mount_facts", {"sources": ["/proc/mounts"]}, check=True)
    assert result["changed"] is False and not result.get("failed"), result
    root = result["ansible_facts"]["mount_points"]["/"]
    assert root["ansible_context"]["source"] == "/proc/mounts"
    assert root["size_total"] > 0 and root["block_size"] > 0 and root["inode_total"] >= root["inode_used"]
    assert set(root) >= {"device", "mount", "fstype", "options", "dump", "passno", "uuid"}
    assert result["ansible_facts"]["aggregate_mounts"] == []


def test_static_source_filters_and_aggregates(host: RemoteHost, fstab: str) -> None:
    result = host.run("mount_facts", {"sources": [fstab, "/proc/mounts"], "fstypes": ["ext*", "xfs", "tmpfs"],
                                      "include_aggregate_mounts": True})
    points = result["ansible_facts"]["mount_points"]
    assert points["/data"]["uuid"] == "0000-TEST" and points["/data"]["device"] == "UUID=0000-TEST"
    assert points["/data"]["passno"] == 2
    assert points["/with space"]["device"] == "/dev/sdz1"
    assert points["/tmp"]["ansible_context"] == {"source": fstab, "source_data": "tmpfs /tmp tmpfs rw 0 0"}
    assert all(entry["fstype"] in ("ext4", "xfs", "tmpfs") or entry["fstype"].startswith("ext")
               for entry in result["ansible_facts"]["aggregate_mounts"])
    only_sdz = host.run("mount_facts", {"sources": [fstab], "devices": ["/dev/sd*"]})
    assert list(only_sdz["ansible_facts"]["mount_points"]) == ["/with space"]


def test_mount_command_as_a_source(host: RemoteHost) -> None:
    result = host.run("mount_facts", {"sources": ["mount"], "timeout": 30})
    points = result["ansible_facts"]["mount_points"]
    assert points["/"]["ansible_context"]["source"] == "mount", result
    assert " on / type " in points["/"]["ansible_context"]["source_data"]


@pytest.mark.parametrize(("args", "message"), [
    ({"timeout": 0}, "must be a positive number"),
    ({"sources": [""]}, "empty string"),
    ({"on_timeout": "panic"}, "on_timeout"),
])
def test_bad_arguments(host: RemoteHost, args: dict, message: str) -> None:
    result = host.run("mount_facts", args)
    assert result.get("failed") and message in result["msg"], result
