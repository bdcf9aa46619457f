"""hostname on a test host (its UTS namespace is its own): /etc/hostname and the running name."""

from __future__ import annotations

from tests.support.remote_harness import RemoteHost, converge, infra_for


def test_rename_and_back(host: RemoteHost, testenv) -> None:
    infra = infra_for(testenv)
    original = infra.check_output("hostname")
    try:
        result = converge(host, "hostname", {"name": "renamed.example.test"},
                          state=lambda: (infra.check_output("hostname"), infra.file("/etc/hostname").content_string))
        assert infra.check_output("hostname") == "renamed.example.test"
        assert infra.file("/etc/hostname").content_string == "renamed.example.test\n"
        assert result["ansible_facts"]["ansible_hostname"] == "renamed"
        assert result["ansible_facts"]["ansible_domain"] == "example.test"
        assert result["diff"]["before"] == f"hostname = {original}\n"
    finally:
        host.run("hostname", {"name": original})
    assert infra.check_output("hostname") == original


def test_invalid_name(host: RemoteHost) -> None:
    result = host.run("hostname", {"name": "two words"})
    assert result.get("failed") and "not a valid hostname" in result["msg"]
