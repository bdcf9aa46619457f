"""Modules written against Ansible's Python API, run through the compatibility layer on the shared test hosts:
packed with their module_utils, sent once per host by hash, run in a child of the agent."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from runner.connection import HostSession
from runner.errors import UserError
from runner.module_index import ModuleIndex
from runner.testenv import TestEnv
from tests.integration.playbook_run import fresh_dir
from tests.integration.test_testenv import out, settings_for
from tests.support.playbook_run import CONFIG, run_playbook

pytestmark = pytest.mark.usefixtures("ansible_core")

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


PLAYBOOK = """\
- hosts: host1,host2
  gather_facts: false
  tasks:
    - name: greet in check mode with diff
      greet: {name: "{{ inventory_hostname }}", path: "{{ where }}/greeting.txt"}
      check_mode: true
      diff: true
      register: predicted
    - name: greet
      greet: {name: "{{ inventory_hostname }}", path: "{{ where }}/greeting.txt", token: s3cret-token}
    - name: greet again
      greet: {name: "{{ inventory_hostname }}", path: "{{ where }}/greeting.txt"}
    - name: greet secretly
      greet: {name: "{{ inventory_hostname }}", path: "{{ where }}/greeting.txt"}
      no_log: true
    - name: greet and fail
      greet: {name: "{{ inventory_hostname }}", path: "{{ where }}/greeting.txt", fail: true}
      ignore_errors: true
    - name: by its fully qualified name
      demo.tools.frob: {value: 3}
    - name: ini through community.general, natively
      community.general.ini_file: {path: "{{ where }}/app.ini", section: main, option: level, value: "3"}
    - name: the role's module, through the role's collections keyword
      include_role: {name: framer}

- hosts: host1
  gather_facts: false
  collections: [demo.tools]
  tasks:
    - name: a short name through the play's collections keyword
      frob: {value: 4}
"""
FROB = b"""\
from ansible.module_utils.basic import AnsibleModule
from ..module_utils.doubling import double


def main():
    module = AnsibleModule(argument_spec=dict(value=dict(type="int", required=True)), supports_check_mode=True)
    module.exit_json(changed=False, doubled=double(module.params["value"]))


if __name__ == "__main__":
    main()
"""


@pytest.fixture
def playbook_project(project: Path) -> Path:
    """The project with a collection demo.tools in collections/ and a role framer whose meta lists it."""
    collection = project / "collections" / "ansible_collections" / "demo" / "tools" / "plugins"
    (collection / "modules").mkdir(parents=True)
    (collection / "module_utils").mkdir()
    (collection / "modules" / "frob.py").write_bytes(FROB)
    (collection / "module_utils" / "doubling.py").write_text("def double(value):\n    return value * 2\n")
    role = project / "roles" / "framer"
    (role / "tasks").mkdir(parents=True)
    (role / "meta").mkdir()
    (role / "meta" / "main.yml").write_text("collections: [demo.tools]\n")
    (role / "tasks" / "main.yml").write_text("- name: frob in the role\n  frob: {value: 5}\n")
    (project / "site.yml").write_text(PLAYBOOK)
    return project


def test_a_playbook_runs_library_and_collection_modules_on_the_test_hosts(
        testenv: TestEnv, playbook_project: Path) -> None:
    where = fresh_dir("ansible-api")
    for host in ("host1", "host2"):
        out(testenv, host, f"mkdir -p {where}")
    result = run_playbook(testenv.inventory_path, playbook_project / "site.yml", "-e", f"where={where}", "--diff",
                          env={"ANSIBLE_COLLECTIONS_PATH": str(playbook_project / "collections")})
    assert result.exit_code == 0, result.output
    predicted = result.task("greet in check mode with diff")
    assert predicted["host1"]["changed"] is True and predicted["host1"]["check"] is True
    assert "+hello host1" in result.output  # the module's diff, shown by --diff
    assert result.task("greet")["host2"]["changed"] is True
    assert result.task("greet again")["host2"]["changed"] is False
    assert "s3cret-token" not in result.output
    assert result.task("greet secretly")["host1"].get("greeting") is None  # no_log hides the whole result
    failed = result.task("greet and fail")["host1"]
    # fail_json leaves changed out; the result has it, as ansible-core sets it for every task
    assert failed["failed"] is True and failed["msg"] == "asked to fail for host1" and failed["changed"] is False
    assert result.task("by its fully qualified name")["host1"]["doubled"] == 6
    assert result.task("ini through community.general, natively")["host2"]["changed"] is True
    assert result.task("framer : frob in the role")["host2"]["doubled"] == 10
    assert result.task("a short name through the play's collections keyword")["host1"]["doubled"] == 8
    assert out(testenv, "host2", f"cat {where}/greeting.txt") == "hello host2"
    assert out(testenv, "host2", f"cat {where}/app.ini").split() == ["[main]", "level", "=", "3"]


def test_without_ansible_core_such_a_task_is_a_compile_error_naming_it(playbook_project: Path) -> None:
    """An interpreter where ansible-core is not importable: the run stops before any host, at the task."""
    code = ("import sys; sys.modules['ansible'] = None\n"
            "from runner.cli.playbook import main\n"
            "sys.argv = ['provisioning-playbook', '--syntax-check', sys.argv[1]]\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code, str(playbook_project / "site.yml")], capture_output=True,
                          text=True, timeout=120, cwd=playbook_project,
                          env={**os.environ, "PROVISIONING_CONFIG": str(CONFIG),
                               "ANSIBLE_COLLECTIONS_PATH": str(playbook_project / "collections")})
    assert done.returncode == 4, done.stdout + done.stderr
    assert f"{playbook_project / 'site.yml'}:5:7: the module greet is written against Ansible's Python API" \
        in done.stderr
    assert "demo.tools.frob" in done.stderr and "pip install 'provisioning[ansible]'" in done.stderr
    assert "Traceback" not in done.stderr
