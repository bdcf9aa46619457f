"""add_host in a loop (runner/executor/playbook_worker.py): every item's host joins the run's inventory, so a later
play over their group runs on all of them, as Ansible's add_host does."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_add_host_in_a_loop_adds_every_item(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: declare
              add_host:
                name: "{{ item }}"
                groups: [added]
                ansible_connection: local
                origin: loop
              loop: [n1, n2]
        - hosts: added
          gather_facts: false
          tasks:
            - name: in the group
              debug:
                msg: "{{ inventory_hostname }} from {{ origin }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("in the group") == ["n1", "n2"]
