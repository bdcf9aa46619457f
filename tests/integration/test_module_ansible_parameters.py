"""Parameters the modules take because Ansible's do, on a test host: chattr attributes, the SELinux context
(accepted where SELinux is off, as Ansible's), find's encoding, group's and user's login.defs limits and password
expiry, command's ignored executable, and service's systemd options where systemd does not run."""

from __future__ import annotations

import pytest

from tests.support.remote_harness import RemoteHost, converge

USER = "param-test-user"
GROUP = "param-test-group"


@pytest.fixture(scope="module", autouse=True)
def clean_accounts(host: RemoteHost):
    yield
    host.run("user", {"name": USER, "state": "absent", "remove": True})
    host.run("group", {"name": GROUP, "state": "absent"})


def test_attributes_go_through_chattr_or_fail_as_ansibles_do(host: RemoteHost, scratch: str) -> None:
    path = f"{scratch}/flagged"
    flags_supported = host.shell(f"touch {path}.probe && chattr +A {path}.probe && echo yes || echo no").strip()
    result = host.run("copy", {"content": "x\n", "dest": path, "attributes": "+A"}, diff=True)
    if flags_supported.endswith("yes"):
        assert result["changed"] is True and not result.get("failed"), result
        assert "A" in host.shell(f"lsattr -d {path}").split()[0]
    else:  # tmpfs, overlayfs: no flags, and Ansible's module fails the same way
        assert result["failed"] is True and result["msg"] == "chattr failed", result


def test_selinux_context_and_unsafe_writes_are_accepted_where_selinux_is_off(host: RemoteHost, scratch: str) -> None:
    args = {"path": f"{scratch}/ctx", "state": "touch", "seuser": "system_u", "serole": "object_r",
            "setype": "tmp_t", "selevel": "s0", "unsafe_writes": True}
    assert host.run("file", args)["changed"] is True


def test_find_reads_contents_in_the_given_encoding(host: RemoteHost, scratch: str) -> None:
    host.shell(f"printf 'caf\\xe9 ouvert\\n' > {scratch}/latin1.txt")
    found = host.run("find", {"paths": scratch, "contains": "café", "encoding": "latin-1"})
    assert [entry["path"] for entry in found["files"]] == [f"{scratch}/latin1.txt"]
    strict = host.run("find", {"paths": scratch, "contains": "café", "encoding": "utf-8"})
    assert strict["files"] == [] and scratch in strict["skipped_paths"], strict
    # ansible-core 2.21's words (2.19 said "Failed to read the file PATH due to an encoding error")
    assert strict["skipped_paths"][scratch] == f"Failed to decode the file '{scratch}/latin1.txt' with encoding: utf-8"


def test_group_gid_limits_choose_the_new_groups_id(host_as_deploy: RemoteHost) -> None:
    created = converge(host_as_deploy, "group", {"name": GROUP, "gid_min": 47100, "gid_max": 47199})
    assert 47100 <= created["gid"] <= 47199
    refused = host_as_deploy.run("group", {"name": GROUP, "gid_min": 1, "local": True})
    assert refused["failed"] is True and refused["msg"] == "'gid_min' can not be used with 'local'"


def test_user_password_expiry_lock_and_uid_limits(host_as_deploy: RemoteHost) -> None:
    args = {"name": USER, "uid_min": 47200, "uid_max": 47299, "create_home": False, "password_lock": True,
            "password_expire_max": 90, "password_expire_min": 1, "password_expire_warn": 7,
            "password_expire_account_disable": 30}
    created = converge(host_as_deploy, "user", args)
    assert 47200 <= created["uid"] <= 47299
    shadow = host_as_deploy.shell(f"getent shadow {USER}").strip().split(":")
    assert shadow[1].startswith("!") and shadow[3:7] == ["1", "90", "7", "30"], shadow
    changed = host_as_deploy.run("user", {"name": USER, "password_expire_max": 60}, diff=True)
    assert changed["changed"] is True and changed["diff"]["after"]["password_expire_max"] == 60, changed
    assert host_as_deploy.shell(f"getent shadow {USER}").split(":")[4] == "60"


def test_command_takes_executable_with_ansibles_warning(host: RemoteHost) -> None:
    result = host.run("command", {"_raw_params": "echo hi", "executable": "/bin/bash"})
    assert result["stdout"] == "hi" and result["warnings"] == [
        "As of Ansible 2.4, the parameter 'executable' is no longer supported with the 'command' module. "
        "Not using '/bin/bash'."]


def test_service_refuses_systemds_options_where_systemd_does_not_run(host: RemoteHost) -> None:
    if host.shell("test -d /run/systemd/system && echo yes || echo no").strip().endswith("yes"):
        pytest.skip("systemd runs on this test host")
    result = host.run("service", {"name": "cron", "state": "started", "daemon_reload": True})
    assert result["failed"] is True and result["msg"] == "Unsupported parameters for (service) module: daemon_reload"


def test_a_missing_home_of_an_existing_user_is_created_as_ansible_does(host_as_deploy: RemoteHost) -> None:
    name = "param-home-user"
    try:
        host_as_deploy.run("user", {"name": name, "create_home": False})
        home = host_as_deploy.shell(f"getent passwd {name}").split(":")[5]
        host_as_deploy.shell(f"rm -rf {home}")
        created = converge(host_as_deploy, "user", {"name": name})
        assert created["diff"]["after"]["home_created"] is True
        owner, mode = host_as_deploy.shell(f"stat -c '%U %a' {home}").split()
        assert owner == name and mode in ("700", "750", "755")
    finally:
        host_as_deploy.run("user", {"name": name, "state": "absent", "remove": True})


def test_find_skips_a_path_with_an_unknown_encoding_in_pythons_words(host: RemoteHost, scratch: str) -> None:
    host.shell(f"echo text > {scratch}/plain.txt")
    result = host.run("find", {"paths": scratch, "contains": "text", "encoding": "idontexist"})
    assert result["skipped_paths"] == {scratch: "unknown encoding: idontexist"}, result
