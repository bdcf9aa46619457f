"""Modules written against Ansible's Python API, run through the compatibility layer on the shared test hosts:
packed with their module_utils, sent once per host by hash, run in a child of the agent."""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from runner.connection import HostSession
from runner.errors import UserError
from runner.module_index import ModuleIndex
from runner.testenv import TestEnv
from tests.integration.test_testenv import out, settings_for
from tests.support.ansible_core import ansible_core

pytestmark = [pytest.mark.hosts, pytest.mark.usefixtures("ansible_core")]
__all__ = ["ansible_core"]

HOST = "host3"
SOURCES = Path(__file__).parent / "ansible_api"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project directory with library/greet.py and module_utils/greeting.py beside its playbook."""
    (tmp_path / "library").mkdir()
    shutil.copy(SOURCES / "greet.py", tmp_path / "library" / "greet.py")
    shutil.copytree(SOURCES / "module_utils", tmp_path / "module_utils")
    return tmp_path


def run_calls(env: TestEnv, index: ModuleIndex, calls: list[tuple[str, dict[str, Any], dict[str, Any]]]
              ) -> tuple[list[dict[str, Any]], list[int]]:
    """Run (module, params, options) in order on one agent; the results and the agent's pid."""

    async def go() -> tuple[list[dict[str, Any]], list[int]]:
        session = HostSession(replace(settings_for(env, HOST), user="deploy"), index)
        try:
            results = [await session.run_module(name, params, **options) for name, params, options in calls]
            agent = await session.agent(None)
            return results, [agent.info["pid"]]
        finally:
            await session.close()

    return asyncio.run(go())


def test_a_library_module_runs_with_its_module_utils_check_mode_diff_and_no_log(testenv: TestEnv,
                                                                                 project: Path) -> None:
    index = ModuleIndex()
    index.add_project_dirs([project])
    path = "/home/deploy/greeting.txt"
    out(testenv, HOST, f"rm -f {path}")
    args = {"name": "world", "path": path, "token": "s3cret-token"}
    results, agent_pid = run_calls(testenv, index, [
        ("greet", args, {"check": True, "diff": True}),
        ("greet", args, {}),
        ("greet", args, {}),
        ("greet", {**args, "fail": True}, {}),
    ])
    checked, changed, unchanged, failed = results
    assert checked["changed"] is True and checked["check"] is True
    assert checked["diff"] == {"before": "", "after": "hello world\n"}
    assert changed["changed"] is True and changed["greeting"] == "hello world\n"
    assert "diff" not in changed
    assert unchanged["changed"] is False
    # AnsibleModule masks a no_log option's value wherever it appears in the result (2.19 as below).
    assert changed["token_echo"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"
    assert changed["invocation"]["module_args"]["token"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"
    assert failed["failed"] is True and failed["msg"] == "asked to fail for world"
    # Each run is a child of the agent, never the agent itself, which goes on serving.
    assert changed["pid"] != agent_pid[0] and changed["pid"] != unchanged["pid"]
    assert out(testenv, HOST, f"cat {path}") == "hello world"
    # AnsibleModule's own temp directories (its atexit clean-up) are gone once each child ends.
    assert out(testenv, HOST, "ls -A /home/deploy/.ansible/tmp 2>/dev/null || true") == ""


def test_an_unknown_module_utils_import_names_what_is_missing(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "broken.py").write_text(
        "from ansible.module_utils.basic import AnsibleModule\nfrom ansible.module_utils.nowhere import x\n")
    index = ModuleIndex()
    index.add_project_dirs([tmp_path])
    info = index.get("broken")
    assert info.ansible_api
    with pytest.raises(UserError, match=r"ansible\.module_utils\.nowhere"):
        index.packed(info)
