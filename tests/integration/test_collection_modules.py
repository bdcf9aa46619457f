"""Real collection modules (community.general, ansible.posix of the ``ansible`` community package) through the
compatibility layer on a test host of their own: each converges, is idempotent, and predicts its change in check
mode (with a diff where the module gives one).

The host is this file's own (127.0.0.36): these modules change its time zone, locales, alternatives and mounts,
which the shared hosts of other tests must not see. Its mounts are in its own mount namespace.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.testenv import TestEnv, unavailable_reason
from tests.support.remote_harness import RemoteHost, converge, infra_for

pytestmark = [pytest.mark.hosts, pytest.mark.usefixtures("ansible_core")]


@pytest.fixture(scope="module")
def env() -> Iterator[TestEnv]:
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="collection-modules", count=1, base_address=36)
    try:
        env.up()
        yield env
    finally:
        env.down()


@pytest.fixture(scope="module")
def host(env: TestEnv, community_collections: Path) -> Iterator[RemoteHost]:
    host = RemoteHost(env)
    host.index.collections_paths = [community_collections]
    yield host
    host.close()


def infra(env: TestEnv) -> Any:
    return infra_for(env)


def converge_unpredicted(host: RemoteHost, module: str, args: dict[str, Any], state: Any) -> dict[str, Any]:
    """``converge`` for a module whose check mode skips its work and reports no change (community.general's
    ModuleHelper modules with ``check_mode_skip``, under ansible-playbook too): check mode changes nothing, the
    first run changes, the second does not."""
    before = state()
    checked = host.run(module, args, check=True)
    assert not checked.get("failed"), checked
    assert state() == before, "check mode changed the host"
    first = host.run(module, args)
    assert not first.get("failed") and first["changed"] is True, first
    second = host.run(module, args)
    assert not second.get("failed") and second["changed"] is False, second
    return first


def test_timezone(host: RemoteHost, env: TestEnv) -> None:
    state = infra(env)
    original = state.file("/etc/timezone").content_string.strip() if state.file("/etc/timezone").exists else "UTC"
    try:
        result = converge(host, "community.general.timezone", {"name": "Asia/Tokyo"},
                          state=lambda: state.file("/etc/timezone").content_string)
        assert state.file("/etc/timezone").content_string.strip() == "Asia/Tokyo"
        assert result["diff"]["after"]["name"] == "Asia/Tokyo"
    finally:
        host.run("community.general.timezone", {"name": original})


def test_locale_gen(host: RemoteHost, env: TestEnv) -> None:
    state = infra(env)
    converge_unpredicted(host, "community.general.locale_gen", {"name": "de_CH.UTF-8", "state": "present"},
                         state=lambda: state.file("/etc/locale.gen").content_string)
    assert "de_CH.utf8" in state.check_output("locale -a")
    host.run("community.general.locale_gen", {"name": "de_CH.UTF-8", "state": "absent"})


def test_modprobe_in_check_mode_changes_nothing(host: RemoteHost) -> None:
    loaded = host.shell("cat /proc/modules 2>/dev/null || echo none")
    result = host.run("community.general.modprobe", {"name": "dummy", "state": "present"}, check=True)
    if loaded == "none\n":
        # A kernel without /proc/modules (a sandboxed one): the module fails in its own words, as under
        # ansible-playbook on the same machine.
        assert result["failed"] and result["msg"] == "[Errno 2] No such file or directory: '/proc/modules'"
    else:
        assert not result.get("failed"), result
        assert result["changed"] is ("\ndummy " not in f"\n{loaded}")
    assert host.shell("cat /proc/modules 2>/dev/null || echo none") == loaded


def test_alternatives(host: RemoteHost, env: TestEnv) -> None:
    state = infra(env)
    args = {"name": "provisioning-test", "path": "/usr/bin/true", "link": "/usr/local/bin/provisioning-test"}
    try:
        converge(host, "community.general.alternatives", args, diff=False,
                 state=lambda: state.file("/usr/local/bin/provisioning-test").exists)
        assert state.file("/etc/alternatives/provisioning-test").linked_to == "/usr/bin/true"
    finally:
        host.shell("update-alternatives --remove-all provisioning-test || true")


def test_mount_a_tmpfs_in_the_hosts_own_mount_namespace(host: RemoteHost, env: TestEnv) -> None:
    state = infra(env)
    args = {"path": "/mnt/collections-tmpfs", "src": "tmpfs", "fstype": "tmpfs", "opts": "size=1m",
            "state": "mounted"}
    try:
        converge(host, "ansible.posix.mount", args, diff=False,
                 state=lambda: (state.file("/etc/fstab").content_string,
                                state.mount_point("/mnt/collections-tmpfs").exists))
        assert state.mount_point("/mnt/collections-tmpfs").filesystem == "tmpfs"
        assert "/mnt/collections-tmpfs tmpfs" in state.file("/etc/fstab").content_string
    finally:
        host.run("ansible.posix.mount", {"path": "/mnt/collections-tmpfs", "state": "absent"})
    assert not state.mount_point("/mnt/collections-tmpfs").exists


def test_acl(host: RemoteHost, env: TestEnv) -> None:
    state = infra(env)
    host.shell("mkdir -p /srv/acl && touch /srv/acl/file")
    args = {"path": "/srv/acl/file", "entity": "nobody", "etype": "user", "permissions": "r", "state": "present"}
    converge(host, "ansible.posix.acl", args, diff=False,
             state=lambda: state.check_output("getfacl -p /srv/acl/file"))
    assert "user:nobody:r--" in state.check_output("getfacl -p /srv/acl/file")


def test_make(host: RemoteHost, env: TestEnv) -> None:
    host.shell("mkdir -p /srv/make && printf 'built.txt:\\n\\techo built > built.txt\\n' > /srv/make/Makefile"
               " && rm -f /srv/make/built.txt")
    state = infra(env)
    converge(host, "community.general.make", {"chdir": "/srv/make", "target": "built.txt"}, diff=False,
             state=lambda: state.file("/srv/make/built.txt").exists)
    assert state.file("/srv/make/built.txt").content_string == "built\n"
