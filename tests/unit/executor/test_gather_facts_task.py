"""``gather_facts`` called as a task (Ansible's action of that name), in a task file or a play, with setup's
options and its own ``parallel``: the facts arrive as a play's fact gathering brings them."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_gather_facts_as_a_task(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: subset
              gather_facts:
                gather_subset: distribution
              when: ansible_distribution is not defined
            - ansible.builtin.gather_facts:
                parallel: true
            - name: show
              debug:
                msg: "{{ ansible_distribution == ansible_facts.distribution }}"
            - setup:
                gather_subset: min
              register: registered
            - name: registered
              debug:
                msg: "{{ registered.ansible_facts.ansible_distribution == ansible_facts.distribution }}"
    """)
    assert run.exit_code == 0, run.output
    # Ansible's names: prefixed in the module's result, kept without the prefix under ansible_facts
    reported = run.task("subset")["h1"]["ansible_facts"]
    assert "ansible_distribution" in reported and "distribution" not in reported
    assert reported["module_setup"] is True
    assert run.msg("show") == {"h1": True}
    assert run.msg("registered") == {"h1": True}
