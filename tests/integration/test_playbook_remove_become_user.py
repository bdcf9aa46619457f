"""A play that became a user and then removes it: the agent running as that user is ended first, as Ansible's
modules have exited by then (userdel refuses a user with a running process)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import run_playbook_text

pytestmark = pytest.mark.hosts

PLAYBOOK = """
- hosts: host1
  gather_facts: false
  become: true
  tasks:
    - user: {name: agenttmp, state: present}
    - name: as the new user
      command: whoami
      become_user: agenttmp
      register: who
    - name: remove the user
      user: {name: agenttmp, state: absent}
"""


def test_removing_a_user_the_run_became_ends_its_agent_first(inventory_path: Path, tmp_path: Path) -> None:
    run = run_playbook_text(inventory_path, PLAYBOOK, tmp_path)
    assert run.task("as the new user")["host1"]["stdout"] == "agenttmp"
    assert run.task("remove the user")["host1"]["changed"] is True
