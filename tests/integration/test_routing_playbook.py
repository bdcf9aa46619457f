"""A role written for Ansible names a module by the short name ansible-core routes to a collection (``mount``, as
geerlingguy.swap does): the playbook compiles to ansible.posix.mount of the collections path and runs it in check
mode on a shared test host, which it leaves unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import fresh_dir, host_file
from tests.support.playbook_run import run_playbook

pytestmark = [pytest.mark.hosts, pytest.mark.usefixtures("ansible_core")]

PLAYBOOK = """\
- hosts: host1
  gather_facts: false
  tasks:
    - name: an empty fstab of this test's own
      ansible.builtin.file: {path: "{{ where }}", state: directory}
      check_mode: false
    - ansible.builtin.copy: {dest: "{{ where }}/fstab", content: ""}
      check_mode: false
    - ansible.builtin.include_role: {name: swapper}
"""
ROLE_TASKS = """\
- name: mount by its short name
  mount:
    path: /mnt/routing-test
    src: tmpfs
    fstype: tmpfs
    fstab: "{{ where }}/fstab"
    state: present
  register: mounted
- name: read the routed mount's result through a routed filter
  debug:
    msg: "{{ [mounted] | json_query('[0].name') }}"
"""


def test_a_short_name_ansible_core_routes_runs_the_collections_module(
        testenv: TestEnv, inventory_path: Path, community_collections: Path, tmp_path: Path) -> None:
    (tmp_path / "roles" / "swapper" / "tasks").mkdir(parents=True)
    (tmp_path / "roles" / "swapper" / "tasks" / "main.yml").write_text(ROLE_TASKS)
    (tmp_path / "site.yml").write_text(PLAYBOOK)
    where = fresh_dir("routing")
    run = run_playbook(inventory_path, tmp_path / "site.yml", "--check", "-e", f"where={where}",
                       env={"ANSIBLE_COLLECTIONS_PATH": str(community_collections)})
    assert run.exit_code == 0, run.output
    predicted = run.task("swapper : mount by its short name")["host1"]
    assert predicted["changed"] is True and predicted["name"] == "/mnt/routing-test", predicted
    assert run.msg("swapper : read the routed mount's result through a routed filter") == {
        "host1": "/mnt/routing-test"}
    assert host_file(testenv, "host1", f"{where}/fstab").read_text() == ""  # check mode wrote nothing
