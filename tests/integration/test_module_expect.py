"""expect: on a test host, whose Python has no pexpect, the task fails with ansible-core's message; with
pexpect (an interpreter named by PROVISIONING_PEXPECT_PYTHON, e.g. a venv with pexpect installed, run locally)
a command's prompts are answered, one answer per match for a list."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.local_host import LocalHost
from tests.support.remote_harness import RemoteHost

PEXPECT_PYTHON = os.environ.get("PROVISIONING_PEXPECT_PYTHON")
ASKS_TWICE = "sh -c 'printf \"Name? \"; read a; printf \"Name? \"; read b; echo \"hello $a and $b\"'"


def test_without_pexpect_fails_as_ansible_core_does(host: RemoteHost) -> None:
    result = host.run("expect", {"command": "true", "responses": {"a": "b"}})
    assert result.get("failed"), result
    assert result["msg"].startswith("Failed to import the required Python library (pexpect) on host1's Python "
                                    "/usr/bin/python3. Please read the module documentation"), result


def test_skipped_in_check_mode(host: RemoteHost) -> None:
    result = host.run("expect", {"command": "true", "responses": {"a": "b"}}, check=True)
    assert result.get("skipped") and not result.get("failed"), result


@pytest.fixture(scope="module")
def with_pexpect() -> Iterator[LocalHost]:
    if not PEXPECT_PYTHON:
        pytest.skip("set PROVISIONING_PEXPECT_PYTHON to a Python that has pexpect to run the prompts")
    local = LocalHost(PEXPECT_PYTHON)
    yield local
    local.close()


def test_prompts_answered_in_turn(with_pexpect: LocalHost) -> None:
    result = with_pexpect.run("expect", {"command": ASKS_TWICE, "responses": {"Name\\?": ["ann", "bob"]}})
    assert result["changed"] and result["rc"] == 0, result
    assert result["stdout"].endswith("hello ann and bob"), result


def test_answers_running_out_fail(with_pexpect: LocalHost) -> None:
    result = with_pexpect.run("expect", {"command": ASKS_TWICE, "responses": {"Name\\?": ["ann"]}, "timeout": 5})
    assert result.get("failed") and "No remaining responses for 'Name\\?'" in result["msg"], result


def test_creates_skips_and_timeout_fails(with_pexpect: LocalHost, tmp_path) -> None:
    skipped = with_pexpect.run("expect", {"command": "false", "responses": {}, "creates": str(tmp_path)})
    assert skipped["changed"] is False and skipped["stdout"] == f"skipped, since {tmp_path} exists", skipped
    waiting = with_pexpect.run("expect", {"command": "sleep 5", "responses": {"never": "x"}, "timeout": 1})
    assert waiting.get("failed") and waiting["msg"] == "command exceeded timeout", waiting
