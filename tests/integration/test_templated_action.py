"""A task whose module name is a template (``action: "{{ ansible_facts.pkg_mgr }}"``), run on localhost: resolved
where the task runs, its arguments (a mapping or free-form words) checked by the module it names then."""

from __future__ import annotations

from pathlib import Path

from tests.integration.local_run import local_project, run_command

PLAYBOOK = """
- hosts: localhost
  gather_facts: false
  vars:
    which: ping
    missing: nosuchmodule
  tasks:
    - name: templated ping
      action: "{{ which }}"
      args:
        data: hello
      register: pinged
    - name: templated command with words
      action: "{{ 'command' }} echo hi"
      register: said
    - name: a module that does not exist
      action: "{{ missing }}"
      ignore_errors: true
      register: unknown
    - name: an argument the module refuses
      action: "{{ which }}"
      args:
        nope: 1
      ignore_errors: true
      register: refused
    - name: report
      debug:
        msg: "{{ [pinged.ping, said.stdout, unknown.msg, refused.msg] | to_json }}"
"""


def test_a_templated_module_name_is_resolved_where_the_task_runs(tmp_path: Path) -> None:
    project = local_project(tmp_path, "[defaults]\ninventory = hosts\n", site=PLAYBOOK)
    completed = run_command(project, "provisioning-playbook", "site.yml")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert '\\"hello\\", \\"hi\\", \\"Cannot resolve \'nosuchmodule\' to an action or module.' \
        in completed.stdout, completed.stdout
    assert "Unsupported parameters for (ping) module: nope. Supported parameters include: data." in completed.stdout
