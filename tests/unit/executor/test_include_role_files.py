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
