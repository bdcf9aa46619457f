"""Argument names a module does not have: a compile error where the task runs whenever its play does, and the
module's own failure, in ansible-core's words, where the task may never run (a condition of its own or of a
block, role or import above it, or a handler) — so a branch for another OS family does not stop the run."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.scripts import script


def playbook(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "play.yml").write_text("- hosts: localhost\n  gather_facts: false\n  connection: local\n" + text)
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("PROVISIONING_", "ANSIBLE_"))}
    return subprocess.run([script("provisioning-playbook"), "-i", "localhost,", "play.yml"],
                          capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=120)


def test_an_unconditional_task_with_an_unknown_argument_stops_the_run_before_it_starts(tmp_path: Path) -> None:
    result = playbook(tmp_path, "  tasks:\n    - debug: msg=first\n    - file: path=/tmp/x bogus=1\n")
    assert result.returncode == 4, (result.stdout, result.stderr)
    assert f"{tmp_path / 'play.yml'}:6:7: file: unsupported parameter: bogus" in result.stderr
    assert "first" not in result.stdout


def test_a_skipped_branch_with_another_familys_arguments_runs(tmp_path: Path) -> None:
    result = playbook(tmp_path, "  tasks:\n"
                      "    - name: RedHat only\n      package: {name: git, state: present, enablerepo: epel}\n"
                      "      when: ansible_os_family | default('Debian') == 'RedHat'\n"
                      "    - block:\n        - file: path=/tmp/x bogus=1\n      when: false\n"
                      "  handlers:\n    - name: never notified\n      file: path=/tmp/x bogus=1\n"
                      "  post_tasks:\n    - debug: msg=reached\n")
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert "reached" in result.stdout and "skipped=2" in result.stdout


def test_a_conditional_task_that_runs_fails_with_the_modules_message(tmp_path: Path) -> None:
    result = playbook(tmp_path, "  tasks:\n    - file: path=/tmp/x bogus=1\n      when: true\n")
    assert result.returncode == 2, (result.stdout, result.stderr)
    expected = ("Unsupported parameters for (file) module: bogus. Supported parameters include: _diff_peek, "
                "_original_basename, access_time, ")
    assert expected in result.stdout


def test_a_task_whose_failure_is_handled_fails_where_it_runs(tmp_path: Path) -> None:
    # A template that does not compile and an unknown argument, each under ignore_errors or a block's rescue: as
    # in ansible-core, the task fails when it runs and the play goes on (the template is not a compile error).
    result = playbook(tmp_path, "  tasks:\n"
                      "    - debug: msg=\"{{ 1 + }}\"\n      ignore_errors: true\n"
                      "    - file: path=/tmp/x bogus=1\n      ignore_errors: \"{{ true }}\"\n"
                      "    - block:\n        - debug: msg=\"{{ nope( }}\"\n"
                      "      rescue:\n        - debug:\n            msg: \"rescued {{ ansible_failed_result.msg }}\"\n"
                      "    - debug: msg=end\n")
    assert result.returncode == 0, (result.stdout, result.stderr)
    recap = " ".join(result.stdout.split())  # ansible-core's recap for the same play: ok=4 rescued=1 ignored=2
    assert "ok=4 changed=0 unreachable=0 failed=0 skipped=0 rescued=1 ignored=2" in recap
    # the failure's message quotes the template that failed, and is shown, not rendered again
    assert ("rescued Task failed: Finalization of task args for 'ansible.builtin.debug' failed: Error while resolving "
            "value for 'msg': Syntax error in template: unexpected '}', expected ')' (templating '{{ nope( }}')"
            ) in result.stdout


def test_a_broken_template_in_a_task_that_always_runs_stops_the_run_first(tmp_path: Path) -> None:
    result = playbook(tmp_path, "  tasks:\n    - debug: msg=first\n    - debug: msg=\"{{ 1 + }}\"\n")
    assert result.returncode == 4 and "template error in task" in result.stderr, (result.stdout, result.stderr)


def test_a_diff_or_check_mode_that_is_no_boolean_fails_its_task_when_it_runs(tmp_path: Path) -> None:
    result = playbook(tmp_path, "  tasks:\n"
                      "    - debug: msg=x\n      diff: yes.\n      ignore_errors: true\n      register: bad\n"
                      "    - assert:\n        that: bad is failed and \"converted to 'bool'\" in bad.msg\n")
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert "The value 'yes.' could not be converted to 'bool'." in result.stdout


def test_a_templated_argument_that_may_be_omitted_conflicts_with_none_before_the_run(tmp_path: Path) -> None:
    # debug's msg and var exclude each other; a msg that renders to omit leaves var alone (as in ansible-core),
    # so the compiler, which cannot know that before the run, does not count it (pip's executable | virtualenv
    # of a role's loop item, geerlingguy.pip's).
    result = playbook(tmp_path, "  vars:\n    shown: 42\n  tasks:\n"
                      "    - debug:\n        msg: \"{{ nothing | default(omit) }}\"\n        var: shown\n")
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert '"shown": 42' in result.stdout


def test_two_literal_arguments_that_exclude_each_other_stop_the_run_before_it_starts(tmp_path: Path) -> None:
    result = playbook(tmp_path, "  tasks:\n    - debug: msg=first\n    - debug:\n        msg: hi\n        var: x\n")
    assert result.returncode == 4, (result.stdout, result.stderr)
    assert f"{tmp_path / 'play.yml'}:6:7: debug: parameters are mutually exclusive: msg|var" in result.stderr
