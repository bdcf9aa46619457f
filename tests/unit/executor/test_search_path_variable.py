"""``ansible_search_path``: where a task's relative files are looked for, as a list of folders (a role's task
sees its role's folder before the playbook's), as Ansible defines it; a loop item made from it is the same list."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_a_play_task_and_a_role_task_see_their_search_paths(local_hosts: LocalHosts) -> None:
    role = local_hosts.base / "roles" / "web" / "tasks"
    role.mkdir(parents=True)
    (role / "main.yml").write_text("- name: in the role\n  debug: {msg: '{{ ansible_search_path }}'}\n")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          roles: [web]
          tasks:
            - name: in the play
              debug: {msg: "{{ ansible_search_path }}"}
            - name: as a loop item
              debug: {msg: "{{ item == ansible_search_path }}"}
              loop: ["{{ ansible_search_path }}"]
        """)
    assert run.exit_code == 0, run.output
    playbook_dir = str(local_hosts.base)
    assert run.msg("in the play") == {"h1": [playbook_dir]}
    in_role = run.msg("web : in the role")["h1"]
    assert in_role[0] == str(local_hosts.base / "roles" / "web") and in_role[-1] == playbook_dir
    assert [item["msg"] for item in run.task("as a loop item")["h1"]["results"]] == [True]
