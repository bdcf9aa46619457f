"""run_once (runner/executor/playbook.py): the task runs on the first host of the batch only, and what it
registers or sets holds for every host of the batch."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_run_once_runs_on_the_first_host_and_shares_its_result(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - name: once
              shell: echo {{ inventory_hostname }} >> {{ shared }}/log; echo ran-on-{{ inventory_hostname }}
              run_once: true
              register: once
            - name: fact once
              set_fact:
                picked: "{{ inventory_hostname }}"
              run_once: true
            - name: every host sees it
              debug:
                msg: "{{ once.stdout }} {{ picked }}"
        """)
    assert run.exit_code == 0, run.output
    assert local_hosts.log() == ["h1"]
    assert run.msg("every host sees it") == {host: "ran-on-h1 h1" for host in ("h1", "h2", "h3")}
    # Shown and counted for the host that ran it.
    assert list(run.task("once")) == ["h1"]
    assert run.stats["h2"]["changed"] == 0


def test_run_once_runs_once_per_serial_batch(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          serial: 2
          tasks:
            - name: once per batch
              shell: echo {{ inventory_hostname }} >> {{ shared }}/log
              run_once: true
        """)
    assert run.exit_code == 0, run.output
    assert local_hosts.log() == ["h1", "h3"]


def test_a_failed_run_once_task_fails_every_host_of_the_batch(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - name: once and broken
              command: /bin/false
              run_once: true
            - name: after
              debug:
                msg: ran
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("after") == []


def test_a_run_once_include_brings_its_tasks_to_the_first_host_only(local_hosts: LocalHosts) -> None:
    (local_hosts.base / "included.yml").write_text("- name: included task\n  debug:\n    msg: in\n")
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - include_tasks: included.yml
              run_once: true
            - name: after
              debug:
                msg: after
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("included task") == ["h1"]
    assert run.ran("after") == ["h1", "h2", "h3"]


def test_what_a_run_once_task_sets_holds_for_hosts_not_at_that_task(local_hosts: LocalHosts) -> None:
    # The include runs for h1 only, so h2 and h3 never reach the run_once task inside it; what it registers and
    # sets is theirs too all the same, as ansible-core has it.
    (local_hosts.base / "included.yml").write_text(
        "- name: set once\n  set_fact:\n    picked: '{{ inventory_hostname }}'\n  register: setting\n")
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - include_tasks:
                file: included.yml
                apply:
                  run_once: true
              run_once: true
            - name: every host sees it
              debug:
                msg: "{{ picked }} {{ setting is succeeded }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("every host sees it") == {host: "h1 True" for host in ("h1", "h2", "h3")}
