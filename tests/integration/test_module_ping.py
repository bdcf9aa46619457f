"""ping on a real (local) host, and what an exception escaping a module reports (ping's data=crash raises)."""

from __future__ import annotations

import pytest

from tests.support.local_host import LocalHost, assert_ok


@pytest.fixture(scope="module")
def host(local_host: LocalHost) -> LocalHost:
    return local_host


def test_ping_returns_its_data(host: LocalHost) -> None:
    result = host.run("ping", {"data": "testing"})
    assert_ok(result, changed=False)
    assert result["ping"] == "testing"


def test_an_exception_in_a_module_fails_in_ansible_core_2_19s_words(host: LocalHost) -> None:
    result = host.run("ping", {"data": "crash"})
    assert result["failed"] is True and not result.get("changed")
    assert result["msg"] == "Task failed: Module failed: boom"
    assert "Traceback" in result["exception"] and "Exception: boom" in result["exception"]
