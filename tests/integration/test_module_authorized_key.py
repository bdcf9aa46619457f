"""authorized_key on a test host, as deploy with sudo: keys for another user added, rewritten and removed."""

from __future__ import annotations

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for


@pytest.fixture(scope="module")
def host(host_as_deploy: RemoteHost) -> RemoteHost:
    """This file's modules run as the deploy user through sudo."""
    return host_as_deploy


USER = "authkey-test"
KEY_FILE = f"/home/{USER}/.ssh/authorized_keys"
KEY1 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGPUuCf7HFLFxnRyc85s9cZmscMlo5AB+KTdskqogNNo first"
KEY2 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL5kGiuGLmQp3qmClD5iiSRuvDJNG4FsFdfYOyQrKQ/V second"


@pytest.fixture(scope="module", autouse=True)
def account(host: RemoteHost):
    created = host.run("user", {"name": USER})
    assert not created.get("failed"), created
    yield
    host.run("user", {"name": USER, "state": "absent", "remove": True})


def test_keys_added_with_the_directory(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    host.shell(f"rm -rf /home/{USER}/.ssh")
    converge(host, "authorized_key", {"user": USER, "key": f"{KEY1}\n{KEY2}\n"},
             state=lambda: infra.file(KEY_FILE).exists)
    keys = infra.file(KEY_FILE)
    assert keys.content_string == f"{KEY1}\n{KEY2}\n"
    assert (keys.user, keys.mode) == (USER, 0o600)
    ssh_dir = infra.file(f"/home/{USER}/.ssh")
    assert (ssh_dir.user, ssh_dir.mode) == (USER, 0o700)


def test_options_and_comment_rewrite_the_line_in_place(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    result = converge(host, "authorized_key", {"user": USER, "key": KEY1, "comment": "ops",
                                               "key_options": 'no-pty,from="127.0.0.1"'},
                      state=lambda: infra.file(KEY_FILE).content_string)
    assert infra.file(KEY_FILE).content_string == (f'no-pty,from="127.0.0.1" {KEY1.rsplit(" ", 1)[0]} ops\n'
                                                   f"{KEY2}\n")
    assert KEY1 in result["diff"]["before"]


def test_exclusive_and_absent(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    converge(host, "authorized_key", {"user": USER, "key": KEY2, "exclusive": True},
             state=lambda: infra.file(KEY_FILE).content_string)
    assert infra.file(KEY_FILE).content_string == f"{KEY2}\n"
    converge(host, "authorized_key", {"user": USER, "key": KEY2, "state": "absent"},
             state=lambda: infra.file(KEY_FILE).content_string)
    assert infra.file(KEY_FILE).content_string == ""


def test_clear_failures(host: RemoteHost) -> None:
    not_a_key = host.run("authorized_key", {"user": USER, "key": "hello world"})
    assert not_a_key.get("failed") and "invalid key specified" in not_a_key["msg"]
    no_user = host.run("authorized_key", {"user": "no-such-user-here", "key": KEY1})
    assert no_user.get("failed") and "no-such-user-here" in no_user["msg"]
