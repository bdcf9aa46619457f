"""A task whose ``until`` never held, as ansible-core 2.21 ends it (runner/executor/playbook_worker.py,
result_conditions.py): a ``failed_when`` evaluated on the last attempt decides whether it failed, else it fails
without an ``exception`` or an ``[ERROR]:`` line; per loop item too, the loop's result gathering its items."""

from __future__ import annotations

from tests.support.ansible_core import ensure_ansible_core_importable
from tests.support.playbook_run import PlaybookRun
from tests.unit.executor.conftest import LocalHosts

# One retry, no delay: two runs, the second the last.
_RETRIED = """
      until: false
      retries: 1
      delay: 0"""


def _play(local_hosts: LocalHosts, tasks: str, *args: str) -> PlaybookRun:
    """``tasks`` (a task list indented by 4) on h1, then a task that shows whether the host went on."""
    after = """
    - name: after
      debug:
        msg: went on
"""
    return local_hosts.play("- hosts: h1\n  gather_facts: false\n  tasks:" + tasks + after, *args)


def test_retries_that_run_out_fail_the_task_without_an_error_line(local_hosts: LocalHosts) -> None:
    run = _play(
        local_hosts,
        f"""
    - name: waited
      command: "true"
      register: r{_RETRIED}
      ignore_errors: true
    - name: registered
      debug:
        msg: "{{{{ r }}}}"
""",
    )
    assert run.exit_code == 0, run.output
    registered = run.msg("registered")["h1"]
    assert registered["failed"] is True and registered["attempts"] == 1
    assert "exception" not in registered  # the last attempt's result had not failed: nothing raised
    assert "[ERROR]" not in run.output
    assert "FAILED - RETRYING: [h1]: waited (0 retries left)." in run.output  # 2.21's count
    assert "fatal: [h1]: FAILED! =>" in run.output and "...ignoring" in run.output


def test_a_false_failed_when_lets_the_task_go_on(local_hosts: LocalHosts) -> None:
    run = _play(
        local_hosts,
        f"""
    - name: waited
      command: "true"
      register: r{_RETRIED}
      failed_when: false
    - name: registered
      debug:
        msg: "{{{{ [r.failed, r.failed_when_result, r.changed, r is failed, r.attempts] }}}}"
    - name: not changed either
      command: "true"{_RETRIED}
      failed_when: false
      changed_when: false
""",
    )
    assert run.exit_code == 0, run.output
    assert run.msg("registered")["h1"] == [False, False, True, False, 1]
    assert "changed: [h1]" in run.output and run.msg("after")["h1"] == "went on"
    assert run.task("not changed either")["h1"]["changed"] is False
    assert run.report is not None and run.report["stats"]["h1"]["failures"] == 0


def test_a_failed_when_that_holds_or_a_changed_when_alone_still_fails_it(local_hosts: LocalHosts) -> None:
    run = _play(
        local_hosts,
        f"""
    - name: failed_when true
      command: "true"{_RETRIED}
      failed_when: true
      ignore_errors: true
    - name: changed_when alone
      command: "true"{_RETRIED}
      changed_when: false
      ignore_errors: true
""",
    )
    assert run.exit_code == 0, run.output
    decided = run.task("failed_when true")["h1"]
    assert decided["failed"] is True and decided["failed_when_result"] is True
    assert "A 'failed_when' expression evaluated to 'True'." in run.output
    alone = run.task("changed_when alone")["h1"]
    assert alone["failed"] is True and alone["changed"] is False and alone["changed_when_result"] is False


def test_a_module_that_failed_each_time_keeps_its_error(local_hosts: LocalHosts) -> None:
    run = _play(
        local_hosts,
        f"""
    - name: failing
      fail:
        msg: boom
      register: r{_RETRIED}
      ignore_errors: true
    - name: registered
      debug:
        msg: "{{{{ r }}}}"
    - name: failing but judged
      command: "false"{_RETRIED}
      failed_when: false
""",
    )
    assert run.exit_code == 0, run.output
    registered = run.msg("registered")["h1"]
    assert registered["failed"] is True and "exception" in registered
    assert "[ERROR]: Task failed: Action failed: boom" in run.output
    assert run.task("failing but judged")["h1"]["failed"] is False


def test_each_loop_item_is_judged_and_the_loop_gathers_them(local_hosts: LocalHosts) -> None:
    run = _play(
        local_hosts,
        """
    - name: judged
      command: "echo {{ item }}"
      register: judged
      until: false
      retries: 1
      delay: 0
      failed_when: false
      loop: [a, b]
    - name: mixed
      command: "echo {{ item }}"
      register: mixed
      until: item == 'a'
      retries: 1
      delay: 0
      loop: [a, b]
      ignore_errors: true
    - name: registered
      debug:
        msg: "{{ [judged.failed, judged.results | map(attribute='failed') | list, judged is failed,
                  mixed.failed, mixed.results | map(attribute='failed') | list, 'exception' in mixed,
                  'exception' in mixed.results[1]] }}"
""",
    )
    assert run.exit_code == 0, run.output
    assert run.msg("registered")["h1"] == [False, [False, False], False, True, [False, True], False, False]
    assert "changed: [h1] => (item=b)" in run.output and "failed: [h1] (item=b)" in run.output
    assert "[ERROR]" not in run.output


def test_a_command_skipped_in_check_mode_fails_whatever_failed_when_says(local_hosts: LocalHosts) -> None:
    # failed_when is not evaluated on a skipped result, so nothing decides against the retries
    run = _play(
        local_hosts,
        f"""
    - name: waited
      command: "true"{_RETRIED}
      failed_when: false
""",
        "--check",
    )
    assert run.exit_code == 2, run.output
    result = run.task("waited")["h1"]
    assert result["failed"] is True and "failed_when_result" not in result
    assert run.ran("after") == []


# A module of the playbook's library/ that fails with a `results` list of its own (as package modules do)
_RESULTS_MODULE = """
from ansible.module_utils.basic import AnsibleModule

AnsibleModule(argument_spec={}).fail_json(msg="no", results=["tried"])
"""


def test_a_modules_own_results_list_is_no_loop(local_hosts: LocalHosts) -> None:
    # only a loop's result goes without an exception: a failed module's keeps its own, results or not
    ensure_ansible_core_importable()
    (local_hosts.base / "library").mkdir()
    (local_hosts.base / "library" / "listing.py").write_text(_RESULTS_MODULE)
    run = _play(
        local_hosts,
        """
    - name: listing
      listing: {}
      register: r
      ignore_errors: true
    - name: registered
      debug:
        msg: "{{ ['exception' in r, r.results] }}"
""",
    )
    assert run.exit_code == 0, run.output
    assert run.msg("registered")["h1"] == [True, ["tried"]]
