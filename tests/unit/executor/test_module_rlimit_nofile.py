"""The soft limit of open files a module runs with: the configuration's ``python_module_rlimit_nofile`` (Ansible's
``ANSIBLE_PYTHON_MODULE_RLIMIT_NOFILE``, which ansible-test sets) for every task, a task's
``ansible_python_module_rlimit_nofile`` above it (0 or omitted leaves the host's); native modules and modules
written against Ansible's API alike."""

from __future__ import annotations

import resource

import pytest

from tests.support.ansible_core import ensure_ansible_core_importable
from tests.unit.executor.conftest import LocalHosts

# A module of the playbook's library/ written against Ansible's API, reporting its limits
API_MODULE = """
import resource
from ansible.module_utils.basic import AnsibleModule

module = AnsibleModule(argument_spec={})
module.exit_json(soft=resource.getrlimit(resource.RLIMIT_NOFILE)[0])
"""

TASKS = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: configured
      shell: ulimit -n
    - name: the task's own
      shell: ulimit -n
      vars: {ansible_python_module_rlimit_nofile: 200}
    - name: the host's
      shell: ulimit -n
      vars: {ansible_python_module_rlimit_nofile: 0}
    - name: omitted
      shell: ulimit -n
      vars: {ansible_python_module_rlimit_nofile: "{{ omit }}"}
    - name: ansible api
      report_limit:
"""


def test_the_configured_limit_is_every_modules_unless_the_task_sets_one(local_hosts: LocalHosts,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    ensure_ansible_core_importable()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 300:
        pytest.skip(f"the hard limit of open files here ({hard}) leaves no room to lower the soft one")
    (local_hosts.base / "library").mkdir()
    (local_hosts.base / "library" / "report_limit.py").write_text(API_MODULE)
    monkeypatch.setenv("ANSIBLE_PYTHON_MODULE_RLIMIT_NOFILE", "150")
    run = local_hosts.play(TASKS)
    assert run.exit_code == 0, run.output
    assert run.task("configured")["h1"]["stdout"] == "150"
    assert run.task("the task's own")["h1"]["stdout"] == "200"
    assert run.task("the host's")["h1"]["stdout"] == str(soft)
    assert run.task("omitted")["h1"]["stdout"] == str(soft)  # an omitted value is 0, as in Ansible
    assert run.task("ansible api")["h1"]["soft"] == 150
