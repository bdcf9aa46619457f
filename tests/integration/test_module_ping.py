"""ping on a real (local) host, and what an exception escaping a module reports (ping's data=crash raises)."""

from __future__ import annotations

from tests.support.local_host import LocalHost, assert_ok


def test_ping_returns_its_data(local_host: LocalHost) -> None:
    result = local_host.run("ping", {"data": "testing"})
    assert_ok(result, changed=False)
    assert result["ping"] == "testing"


def test_an_exception_in_a_module_fails_in_ansible_core_2_19s_words(local_host: LocalHost) -> None:
    result = local_host.run("ping", {"data": "crash"})
    assert result["failed"] is True and not result.get("changed")
    assert result["msg"] == "Task failed: Module failed: boom"
    assert "Traceback" in result["exception"] and "Exception: boom" in result["exception"]
