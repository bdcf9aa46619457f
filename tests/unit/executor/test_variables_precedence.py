"""Which variable source wins (runner/executor/variables.py), for neighbouring levels of Ansible's precedence:
extra vars over set_fact over task vars over play vars over inventory vars over role defaults. Each variable
below is defined at exactly two neighbouring levels; the task says which value it sees."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts

PLAYBOOK = """
- hosts: h1
  gather_facts: false
  vars:
    play_over_inventory: play vars
    task_over_play: play vars
  tasks:
    - name: set facts
      set_fact:
        extra_over_fact: set_fact
        fact_over_task: set_fact
    - name: what wins
      debug:
        msg:
          extra_over_fact: "{{ extra_over_fact }}"
          fact_over_task: "{{ fact_over_task }}"
          task_over_play: "{{ task_over_play }}"
          play_over_inventory: "{{ play_over_inventory }}"
      vars:
        fact_over_task: task vars
        task_over_play: task vars
    - name: in the role
      include_role:
        name: defaults_role
"""


def test_each_level_wins_over_the_one_below(local_hosts: LocalHosts) -> None:
    local_hosts.hosts["h1"].update(play_over_inventory="inventory vars", inventory_over_defaults="inventory vars")
    role = local_hosts.base / "roles" / "defaults_role"
    (role / "defaults").mkdir(parents=True)
    (role / "defaults" / "main.yml").write_text("inventory_over_defaults: role defaults\n")
    (role / "tasks").mkdir()
    (role / "tasks" / "main.yml").write_text(
        "- name: role sees\n  debug:\n    msg: \"{{ inventory_over_defaults }}\"\n")

    run = local_hosts.play(PLAYBOOK, "-e", "extra_over_fact='extra vars'")
    assert run.exit_code == 0, run.output
    assert run.msg("what wins") == {"h1": {"extra_over_fact": "extra vars", "fact_over_task": "set_fact",
                                           "task_over_play": "task vars", "play_over_inventory": "play vars"}}
    assert run.msg("defaults_role : role sees") == {"h1": "inventory vars"}
