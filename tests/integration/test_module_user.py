"""user and group on a test host, as deploy through sudo: accounts created, changed and removed, checked with
testinfra."""

from __future__ import annotations

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for


@pytest.fixture(scope="module")
def host(host_as_deploy: RemoteHost) -> RemoteHost:
    """This file's modules run as the deploy user through sudo."""
    return host_as_deploy


USER = "acct-test-user"
GROUP = "acct-test-group"
EXTRA_GROUP = "acct-test-extra"
# crypt(3) SHA-512 hash of "secret" with the salt "saltsalt"
PASSWORD = "$6$saltsalt$TVLlQcbpFVof5W3Yz4DTP6gRstiNuHwwTt6GLc1E5n0U0aDehy0S5knV8wiOQSpT0Y77vwPZN.Pq.H91p5hVO1"


@pytest.fixture(scope="module", autouse=True)
def clean_accounts(host: RemoteHost):
    yield
    host.run("user", {"name": USER, "state": "absent", "remove": True})
    for group in (GROUP, EXTRA_GROUP):
        host.run("group", {"name": group, "state": "absent"})


def test_group_created_changed_removed(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    created = converge(host, "group", {"name": GROUP, "gid": 4710}, state=lambda: infra.group(GROUP).exists)
    assert created["gid"] == 4710 and infra.group(GROUP).gid == 4710
    changed = converge(host, "group", {"name": GROUP, "gid": 4711}, state=lambda: infra.group(GROUP).gid)
    assert changed["diff"]["before"]["gid"] == 4710 and changed["diff"]["after"]["gid"] == 4711
    converge(host, "group", {"name": EXTRA_GROUP, "system": True}, state=lambda: infra.group(EXTRA_GROUP).exists)
    assert infra.group(EXTRA_GROUP).gid < 1000


def test_user_created_with_every_field(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    args = {"name": USER, "uid": 4712, "group": GROUP, "groups": [EXTRA_GROUP], "shell": "/bin/bash",
            "home": f"/home/{USER}", "comment": "Account Test", "password": PASSWORD, "expires": 1893456000}
    created = converge(host, "user", args, state=lambda: infra.user(USER).exists)
    assert created["diff"]["after"]["state"] == "present" and PASSWORD not in str(created)
    user = infra.user(USER)
    assert (user.uid, user.group, user.groups, user.shell, user.home, user.gecos) == (
        4712, GROUP, [GROUP, EXTRA_GROUP], "/bin/bash", f"/home/{USER}", "Account Test")
    assert user.password == PASSWORD and user.expiration_date.year == 2030
    assert infra.file(f"/home/{USER}").is_directory


def test_user_modified_field_by_field(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    changed = converge(host, "user", {"name": USER, "shell": "/bin/sh", "comment": "Changed", "expires": -1},
                       state=lambda: infra.user(USER).shell)
    assert changed["diff"]["before"]["shell"] == "/bin/bash" and changed["diff"]["after"]["shell"] == "/bin/sh"
    assert infra.user(USER).shell == "/bin/sh" and infra.user(USER).expiration_date is None
    unchanged = host.run("user", {"name": USER, "password": "other-hash", "update_password": "on_create"})
    assert unchanged["changed"] is False
    converge(host, "user", {"name": USER, "groups": ["users"], "append": True},
             state=lambda: infra.user(USER).groups)
    assert set(infra.user(USER).groups) == {GROUP, EXTRA_GROUP, "users"}
    converge(host, "user", {"name": USER, "groups": []}, state=lambda: infra.user(USER).groups)
    assert infra.user(USER).groups == [GROUP]


def test_ssh_key_generated_once(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    key = f"/home/{USER}/.ssh/id_ed25519"
    result = converge(host, "user", {"name": USER, "generate_ssh_key": True, "ssh_key_type": "ed25519"},
                      state=lambda: infra.file(key).exists)
    assert result["ssh_key_file"] == key and result["ssh_public_key"].startswith("ssh-ed25519 ")
    assert infra.file(key).user == USER and infra.file(key).mode == 0o600


def test_an_existing_key_file_is_kept_unless_forced(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    key = f"/home/{USER}/.ssh/other_rsa"
    host.shell(f"mkdir -p /home/{USER}/.ssh && ln -sfn /etc/hostname {key}.pub")
    args = {"name": USER, "generate_ssh_key": True, "ssh_key_file": ".ssh/other_rsa", "ssh_key_type": "ed25519"}
    kept = host.run("user", args)
    assert kept["changed"] is False and infra.file(f"{key}.pub").is_symlink
    assert kept["warnings"] == [f'Found existing ssh key public file "{key}.pub", no force, so skipping ssh-keygen '
                                "generation"]
    forced = host.run("user", {**args, "force": True})
    assert forced["changed"] is True and not infra.file(f"{key}.pub").is_symlink
    assert infra.file(f"{key}.pub").user == USER


def test_user_and_group_removed(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    converge(host, "user", {"name": USER, "state": "absent", "remove": True},
             state=lambda: infra.user(USER).exists)
    assert not infra.user(USER).exists and not infra.file(f"/home/{USER}").exists
    converge(host, "group", {"name": GROUP, "state": "absent"}, state=lambda: infra.group(GROUP).exists)
    assert not infra.group(GROUP).exists


def test_clear_failures(host: RemoteHost) -> None:
    missing_group = host.run("user", {"name": USER, "group": "no-such-group"})
    assert missing_group.get("failed") and "Group no-such-group does not exist" in missing_group["msg"]
    bad_uid = host.run("user", {"name": USER, "uid": "abc"})
    assert bad_uid.get("failed") and "uid" in bad_uid["msg"]


def test_expiry_of_an_account_without_a_shadow_entry_creates_it(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    name = "acct-no-shadow"
    host.shell(f"sh -c 'echo {name}::5751:5751::/nonexistent:/bin/sh >> /etc/passwd'")
    try:
        first = host.run("user", {"name": name, "uid": 5751, "expires": -1})
        assert first["changed"] is True, first
        assert infra.run(f"getent shadow {name}").rc == 0
        assert host.run("user", {"name": name, "uid": 5751, "expires": -1})["changed"] is False
    finally:
        host.run("user", {"name": name, "state": "absent"})


def test_a_locked_password_is_the_same_password(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    name = "acct-lock-test"
    try:
        host.run("user", {"name": name, "password": PASSWORD})
        locked = {"name": name, "password": PASSWORD, "password_lock": True}
        assert host.run("user", locked)["changed"] is True
        assert infra.run(f"getent shadow {name}").stdout.split(":")[1] == "!" + PASSWORD
        assert host.run("user", locked)["changed"] is False
        unlocked = host.run("user", {**locked, "password_lock": False})
        assert unlocked["changed"] is True and infra.run(f"getent shadow {name}").stdout.split(":")[1] == PASSWORD
    finally:
        host.run("user", {"name": name, "state": "absent"})


def test_append_without_groups_fails_as_ansible_core_2_21s(host: RemoteHost) -> None:
    result = host.run("user", {"name": "root", "append": True})
    assert result["failed"] is True and result["changed"] is False
    assert result["msg"] == "append is True but all of the following are missing: groups"
