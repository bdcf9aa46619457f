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


def test_add_host_is_changed_when_a_variable_of_the_host_changes(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {name: new host, add_host: {name: n1, ansible_connection: local}}
            - {name: same again, add_host: {name: n1}}
            - {name: new variable, add_host: {name: n1, colour: red}}
            - {name: same variable, add_host: {name: n1, colour: red}}
            - {name: other value, add_host: {name: n1, colour: blue}}
        """)
    assert run.exit_code == 0, run.output
    changed = {name: run.task(name)["h1"]["changed"]
               for name in ("new host", "same again", "new variable", "same variable", "other value")}
    assert changed == {"new host": True, "same again": False, "new variable": True, "same variable": False,
                       "other value": True}


def test_add_host_reads_a_port_after_the_name(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {name: with a port, add_host: {name: "127.0.1.1:2222"}, register: added}
            - {name: show, debug: {msg: "{{ added.add_host.host_name }} {{ hostvars['127.0.1.1'].ansible_ssh_port }}"}}
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("show") == {"h1": "127.0.1.1 2222"}
