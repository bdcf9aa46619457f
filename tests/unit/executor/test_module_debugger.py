"""``_ansible_ansiballz_pydevd_config``: a module attaches to a remote debugger before it runs, as ansible-core's
AnsiballZ does (the debugger's module is imported on the host and its ``settrace`` called with the options given);
a debugger module the host lacks fails the module in ansible-core's words; options it does not know are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.ansible_core import ensure_ansible_core_importable
from tests.unit.executor.conftest import LocalHosts

API_MODULE = """
from ansible.module_utils.basic import AnsibleModule

AnsibleModule(argument_spec={}).exit_json(changed=False)
"""

# A stand-in for pydevd on the "host" (this machine): records what settrace was called with.
FAKE_DEBUGGER = """
import json, os

def settrace(**options):
    with open(os.environ["FAKE_DEBUGGER_LOG"], "a") as log:
        log.write(json.dumps(options) + "\\n")
"""

TASKS = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: attached
      ping:
      vars:
        _ansible_ansiballz_pydevd_config: {module: fake_debugger, settrace: {host: localhost, port: 5678}}
    - name: as json
      ping:
      vars:
        _ansible_ansiballz_pydevd_config: '{"module": "fake_debugger", "settrace": {"suspend": false}}'
    - name: missing
      ping:
      vars:
        _ansible_ansiballz_pydevd_config: {module: not_a_valid_debugger_module}
      ignore_errors: true
    - name: missing, for a module written against Ansible's API
      api_module:
      vars:
        _ansible_ansiballz_pydevd_config: {module: not_a_valid_debugger_module}
      ignore_errors: true
    - name: unknown option
      ping:
      vars:
        _ansible_ansiballz_pydevd_config: {module: fake_debugger, port: 1}
      ignore_errors: true
"""


def test_a_module_attaches_to_the_debugger_its_task_names(local_hosts: LocalHosts, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    ensure_ansible_core_importable()
    (local_hosts.base / "library").mkdir()
    (local_hosts.base / "library" / "api_module.py").write_text(API_MODULE)
    (tmp_path / "debugger").mkdir()
    (tmp_path / "debugger" / "fake_debugger.py").write_text(FAKE_DEBUGGER)
    log = tmp_path / "settrace.log"
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "debugger"))
    monkeypatch.setenv("FAKE_DEBUGGER_LOG", str(log))
    run = local_hosts.play(TASKS)
    assert run.exit_code == 0, run.output
    assert run.task("attached")["h1"]["ping"] == "pong"
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert calls == [{"host": "localhost", "port": 5678}, {"suspend": False}]
    missing = run.task("missing")["h1"]
    assert missing["failed"] is True
    assert missing["msg"] == "Task failed: Module failed: No module named 'not_a_valid_debugger_module'"
    api = run.task("missing, for a module written against Ansible's API")["h1"]
    assert api["msg"] == "Task failed: Module failed: No module named 'not_a_valid_debugger_module'"
    unknown = run.task("unknown option")["h1"]
    assert unknown["failed"] is True and "has unknown options port" in unknown["msg"]
