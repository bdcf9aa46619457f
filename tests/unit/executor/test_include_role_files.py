"""include_role's tasks_from, handlers_from, vars_from and defaults_from (runner/executor/playbook_worker.py, the
controller's include cache) are rendered per host with the task's variables, as ansible-core renders them."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_templated_role_files_follow_each_hosts_variables(local_hosts: LocalHosts) -> None:
    tasks = local_hosts.base / "roles" / "r" / "tasks"
    tasks.mkdir(parents=True)
    (tasks / "main.yml").write_text("- {name: show, debug: {msg: main}}\n")
    (tasks / "first.yml").write_text("- {name: show, debug: {msg: first}}\n")
    (tasks / "second.yml").write_text("- {name: show, debug: {msg: second}}\n")
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - include_role:
                name: r
                tasks_from: "{{ which }}.yml"
              vars:
                which: "{{ 'first' if inventory_hostname == 'h1' else 'second' }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("r : show") == {"h1": "first", "h2": "second"}


RESCUED = """
- hosts: h1
  gather_facts: false
  tasks:
    - block:
        - include_role:
            name: INCLUDED
            RESCUABLE
      rescue:
        - {name: rescued, debug: {msg: rescued}}
"""


def test_a_missing_role_or_role_file_fails_the_task_which_a_rescue_catches(local_hosts: LocalHosts) -> None:
    tasks = local_hosts.base / "roles" / "r" / "tasks"
    tasks.mkdir(parents=True)
    (tasks / "main.yml").write_text("- {name: show, debug: {msg: main}}\n")
    for included in ("missing_role", "r\n            tasks_from: missing"):
        # ansible-core 2.21: rescuable by default, and when include_role's rescuable renders true
        for rescuable in ("", "rescuable: \"{{ rescueme | default(omit) }}\"", "rescuable: true"):
            run = local_hosts.play(RESCUED.replace("INCLUDED", included).replace("RESCUABLE", rescuable))
            assert run.exit_code == 0, run.output
            assert run.msg("rescued") == {"h1": "rescued"}


def test_include_roles_rescuable_false_makes_a_missing_role_an_error_of_the_playbook(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(RESCUED.replace("INCLUDED", "missing_role").replace("RESCUABLE", "rescuable: false"))
    assert run.exit_code == 4, run.output
    assert "rescued" not in run.output and "The role 'missing_role' was not found in: " in run.output


def test_an_import_role_is_never_rescuable(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - import_role: {name: r, rescuable: true}
        """)
    assert run.exit_code == 4, run.output
    assert "Invalid options for import_role: rescuable" in run.output
