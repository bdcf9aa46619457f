"""getent on a test host: entries as facts, the key that is not there."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost


def test_passwd_entry_split_on_colons(host: RemoteHost) -> None:
    result = host.run("getent", {"database": "passwd", "key": "root"})
    assert result["changed"] is False and not result.get("failed"), result
    assert result["ansible_facts"]["getent_passwd"] == {"root": ["x", "0", "0", "root", "/root", "/bin/bash"]}


def test_whole_database_and_whitespace_split(host: RemoteHost) -> None:
    groups = host.run("getent", {"database": "group"})["ansible_facts"]["getent_group"]
    assert groups["root"][:2] == ["x", "0"] and "deploy" in groups
    hosts = host.run("getent", {"database": "hosts", "key": "localhost"})["ansible_facts"]["getent_hosts"]
    assert any(fields[0] == "localhost" for fields in hosts.values())


def test_missing_key(host: RemoteHost) -> None:
    failed = host.run("getent", {"database": "passwd", "key": "no-such-user-here"})
    assert failed.get("failed") and "could not be found" in failed["msg"]
    tolerated = host.run("getent", {"database": "passwd", "key": "no-such-user-here", "fail_key": False})
    assert not tolerated.get("failed") and tolerated["ansible_facts"]["getent_passwd"] == {}
    assert tolerated["warnings"]
