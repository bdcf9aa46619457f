"""Temporary directories on the host follow ``remote_tmp``, as ansible-core's do: the configuration's
(``ANSIBLE_REMOTE_TMP``), a task's ``ansible_remote_tmp`` above it. The agent's own directory is
``<remote_tmp>/ansible-tmp-<time>-<pid>-<random>`` (private to its user, made with its missing parents when first
needed, removed when the agent ends); a module written against Ansible's API gets the task's ``remote_tmp`` as
``_ansible_remote_tmp`` and makes its own directory there, as when ansible-core pipelines it."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tests.support.ansible_core import ensure_ansible_core_importable
from tests.unit.executor.conftest import LocalHosts

# A module of the playbook's library/ written against Ansible's API: where its temporary directory is, and its mode
API_MODULE = """
import os
import stat
from ansible.module_utils.basic import AnsibleModule

module = AnsibleModule(argument_spec={})
module.exit_json(remote_tmp=module._remote_tmp, tmpdir=module.tmpdir,
                 mode=oct(stat.S_IMODE(os.stat(module.tmpdir).st_mode)))
"""

# A script that says where it runs from (a native module's temporary directory) and that directory's parent's mode
SCRIPT = """#!/bin/sh
echo "$0"
stat -c %a "$(dirname "$(dirname "$0")")"
"""

TASKS = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: configured
      script: where.sh
    - name: configured api
      report_tmpdir:
    - name: the task's own
      script: where.sh
      vars: {ansible_remote_tmp: "{{ task_tmp }}"}
    - name: the task's own api
      report_tmpdir:
      vars: {ansible_remote_tmp: "{{ task_tmp }}"}
"""


def _under(path: str, base: Path, prefix: str) -> bool:
    parts = Path(path).relative_to(base).parts
    return parts[0].startswith(prefix)


def test_temporary_directories_follow_the_configuration_and_the_tasks_remote_tmp(
    local_hosts: LocalHosts, monkeypatch: pytest.MonkeyPatch
) -> None:
    ensure_ansible_core_importable()
    configured, own = local_hosts.base / "configured" / "tmp", local_hosts.base / "own" / "tmp"
    (local_hosts.base / "library").mkdir()
    (local_hosts.base / "library" / "report_tmpdir.py").write_text(API_MODULE)
    (local_hosts.base / "where.sh").write_text(SCRIPT)
    local_hosts.hosts["h1"]["task_tmp"] = str(own)
    monkeypatch.setenv("ANSIBLE_REMOTE_TMP", str(configured))
    run = local_hosts.play(TASKS)
    assert run.exit_code == 0, run.output
    assert "remote_tmp" not in run.output  # a setting done, not warned about

    script, mode = run.task("configured")["h1"]["stdout_lines"]
    assert _under(script, configured, "ansible-tmp-") and mode == "700"
    api = run.task("configured api")["h1"]
    assert api["remote_tmp"] == str(configured) and _under(api["tmpdir"], configured, "ansible-moduletmp-")
    assert api["mode"] == "0o700"

    script, mode = run.task("the task's own")["h1"]["stdout_lines"]
    assert _under(script, own, "ansible-tmp-") and mode == "700"
    api = run.task("the task's own api")["h1"]
    assert api["remote_tmp"] == str(own) and _under(api["tmpdir"], own, "ansible-moduletmp-")

    # made private with their missing parents, and nothing left in them once the run is over
    for base in (configured, own):
        assert stat.S_IMODE(base.stat().st_mode) == 0o700 and stat.S_IMODE(base.parent.stat().st_mode) == 0o700
        assert list(base.iterdir()) == []


def test_a_remote_tmp_that_cannot_be_made_gives_way_to_the_systems(local_hosts: LocalHosts, tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    (local_hosts.base / "where.sh").write_text(SCRIPT)
    run = local_hosts.play(f"""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: blocked
              script: where.sh
              vars: {{ansible_remote_tmp: "{blocked}/tmp"}}
        """)
    assert run.exit_code == 0, run.output
    script, _ = run.task("blocked")["h1"]["stdout_lines"]
    assert not script.startswith(str(blocked)) and "/ansible-tmp-" in script
