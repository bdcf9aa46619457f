"""Blocks (runner/executor/host_walk.py): rescue runs when a task of the block fails and clears the failure;
always runs either way; nested blocks hand an uncaught failure to the enclosing block; ``ansible_failed_task`` and
``ansible_failed_result`` tell the rescue what failed."""

from __future__ import annotations

import re

import pytest

from tests.unit.executor.conftest import LocalHosts

NESTED = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: outer
      block:
        - name: inner
          block:
            - name: before
              shell: echo before >> {{ workdir }}/log
            - name: breaks
              command: /bin/false
            - name: not reached
              shell: echo not-reached >> {{ workdir }}/log
          rescue:
            - name: inner rescue
              debug:
                msg: "{{ ansible_failed_task.name }} rc={{ ansible_failed_result.rc }}"
            - name: fails again
              fail:
                msg: rescue fails too
          always:
            - name: inner always
              shell: echo inner-always >> {{ workdir }}/log
      rescue:
        - name: outer rescue
          debug:
            msg: "{{ ansible_failed_task.name }}: {{ ansible_failed_result.msg }}"
      always:
        - name: outer always
          shell: echo outer-always >> {{ workdir }}/log
    - name: after the block
      shell: echo after >> {{ workdir }}/log
"""


def test_nested_rescue_and_always(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(NESTED)
    # The outer rescue caught what the inner rescue raised: the host did not fail.
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["before", "inner-always", "outer-always", "after"]
    assert run.msg("inner rescue") == {"h1": "breaks rc=1"}
    assert run.msg("outer rescue") == {"h1": "fails again: rescue fails too"}
    assert run.stats["h1"]["failures"] == 0
    assert run.stats["h1"]["rescued"] == 2


def test_a_block_without_rescue_runs_always_then_fails_the_host(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - block:
                - name: breaks on h1
                  command: /bin/false
                  when: inventory_hostname == 'h1'
              always:
                - name: always
                  shell: echo always >> {{ workdir }}/log
            - name: after the block
              shell: echo after >> {{ workdir }}/log
        """)
    assert run.exit_code == 2, run.output
    assert local_hosts.log("h1") == ["always"]
    assert local_hosts.log("h2") == ["always", "after"]
    assert run.stats["h1"]["failures"] == 1


def test_a_failure_in_always_fails_the_host_after_a_rescue(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - block:
                - command: /bin/false
              rescue:
                - name: rescued
                  shell: echo rescued >> {{ workdir }}/log
              always:
                - name: always breaks
                  fail:
                    msg: always fails
            - name: after the block
              shell: echo after >> {{ workdir }}/log
        """)
    assert run.exit_code == 2, run.output
    assert local_hosts.log("h1") == ["rescued"]


MISSING_INCLUDES = """
- hosts: h1
  gather_facts: false
  strategy: {strategy}
  tasks:
    - block:
        - include_role:
            name: "{{{{ item }}}}"
          loop: [no_such_role, nor_this_one]
      rescue:
        - name: role rescue
          debug:
            msg: "{{{{ ansible_failed_result.msg }}}}"
    - block:
        - include_tasks: no_such_file.yml
        - name: not reached
          debug:
      rescue:
        - name: file rescue
          debug:
"""


@pytest.mark.parametrize("strategy", ["linear", "free"])
def test_an_include_naming_nothing_fails_the_host_and_rescue_catches_it(local_hosts: LocalHosts,
                                                                        strategy: str) -> None:
    # ansible-core reports each entry that names nothing, fails the host at the include (not the run) and counts
    # one failure per entry; the rescue runs with the message (a role's, ansible-core 2.21's), and the rescued
    # host ends the run well
    run = local_hosts.play(MISSING_INCLUDES.format(strategy=strategy))
    assert run.exit_code == 0, run.output
    assert "The role 'nor_this_one' was not found in: " in run.msg("role rescue")["h1"]
    assert "[ERROR]: The role 'no_such_role' was not found in: " in run.output
    assert re.search(r"\[ERROR\]: Could not find or access '.*/no_such_file.yml' on the Ansible Controller", run.output)
    assert 'fatal: [h1]: FAILED! => {"changed": false, "include": "no_such_file.yml"' in run.output
    assert run.ran("file rescue") == ["h1"] and run.ran("not reached") == []
    assert run.stats["h1"]["failures"] == 3 and run.stats["h1"]["rescued"] == 0


def test_an_include_naming_nothing_under_any_errors_fatal_stops_the_play(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          any_errors_fatal: true
          tasks:
            - include_role:
                name: no_such_role
              when: inventory_hostname == 'h2'
            - name: never reached
              debug:
        """)
    assert run.exit_code == 2, run.output
    assert run.ran("never reached") == []


def test_a_missing_import_inside_an_included_file_fails_the_host_not_the_run(local_hosts: LocalHosts) -> None:
    # ansible-core reads an included file when the host reaches it: a static import there that names nothing
    # fails the include for that host, with its error and a fatal line, and the other hosts go on
    (local_hosts.base / "outer.yml").write_text("- import_tasks: does-not-exist.yml\n")
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - include_tasks: outer.yml
              when: inventory_hostname == 'h1'
            - name: after
              debug:
        """)
    assert run.exit_code == 2, run.output
    # ansible-core's [ERROR] says it on two lines, its fatal line once more (scripts count these lines)
    assert len([line for line in run.output.splitlines() if "Could not find or access" in line]) == 3
    assert run.ran("after") == ["h2"]


def test_an_include_role_naming_no_role_is_the_includes_failure_as_ansible_core_2_21_shows_it(
        local_hosts: LocalHosts) -> None:
    # the include's header names the role as written; its [ERROR] points at the name, its fatal line has the
    # message as msg; no "included:" line and no ok before the failure
    absent = local_hosts.base / "absent-roles"  # a configured roles_path entry that does not exist is named too
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - include_role:
                name: does-not-exist
        """, env={"PROVISIONING_ROLES_PATH": str(absent)})
    assert run.exit_code == 2, run.output
    assert f"was not found in: {local_hosts.base / 'roles'}:{absent}:{local_hosts.base}\n" in run.output
    lines = run.output.splitlines()
    header = next(index for index, line in enumerate(lines) if line.startswith("TASK [include_role : does-not-exist]"))
    assert lines[header + 1].startswith("[ERROR]: The role 'does-not-exist' was not found in: ")
    # line 6: the playbook's text starts with a line break
    assert lines[header + 2] == f"Origin: {local_hosts.base / 'playbook.yml'}:6:15"
    assert 'fatal: [h1]: FAILED! => {"changed": false, "msg": "The role \'does-not-exist\' was not found in: ' in \
        run.output
    assert "included:" not in run.output
    assert run.stats["h1"]["ok"] == 0 and run.stats["h1"]["failures"] == 1


def test_an_include_tasks_naming_no_file_counts_no_ok_and_shows_no_included_line(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - include_tasks: no_such_file.yml
        """)
    assert run.exit_code == 2, run.output
    assert "included:" not in run.output
    assert run.stats["h1"]["ok"] == 0 and run.stats["h1"]["failures"] == 1
