"""``!unsafe`` in a playbook: task arguments, variables and loop items marked with it are used verbatim, as
ansible-core 2.19 uses them."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_unsafe_in_a_playbook(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars:
            foo: bar
            u: !unsafe '{{ foo }}'
          tasks:
            - name: args
              debug:
                msg: !unsafe '{{ foo }}'
            - set_fact:
                joined: "{{ u }}x"
            - name: loop
              debug:
                msg: "{{ item }} {{ joined }}"
              loop: [!unsafe '{{ foo }}']
    """)
    assert run.exit_code == 0, run.output
    assert run.msg("args") == {"h1": "{{ foo }}"}
    assert run.task("loop")["h1"]["results"][0]["msg"] == "{{ foo }} {{ foo }}x"
