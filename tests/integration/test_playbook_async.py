"""async and poll on a real host (async.yml): a task waited for within its limit, one over it, a background job
followed with async_status until it finishes, a background job over its limit, and cleanup."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts

LIMIT_MESSAGE = "async task did not complete within the requested time - 1s"


@pytest.fixture(scope="module")
def run(inventory_path: Path) -> PlaybookRun:
    return run_playbook(inventory_path, "async.yml")


def result(run: PlaybookRun, task: str) -> dict:
    return run.tasks(task)[0]["host1"]


def test_the_run_succeeds(run: PlaybookRun) -> None:
    assert run.exit_code == 0, run.output


def test_a_polled_task_is_waited_for_within_its_limit(run: PlaybookRun) -> None:
    waited = result(run, "waited for")
    assert waited["stdout"] == "waited" and waited["finished"] is True
    over = result(run, "too long for its limit")
    assert over["failed"] and over["msg"] == LIMIT_MESSAGE


def test_a_background_job_is_followed_with_async_status(run: PlaybookRun) -> None:
    started = result(run, "in the background")
    assert started["started"] is True and started["finished"] is False and started["changed"] is True
    assert result(run, "right after the start")["finished"] is False
    done = result(run, "wait for the job")
    assert done["finished"] is True and done["stdout"] == "done in the background"
    assert done["ansible_job_id"] == started["ansible_job_id"]


def test_a_background_job_over_its_limit_is_stopped_and_reported_failed(run: PlaybookRun) -> None:
    status = result(run, "the slow job ends failed")
    assert status["failed"] and status["msg"] == LIMIT_MESSAGE
    assert result(run, "nothing left of the slow ones")["stdout"] == ""


def test_cleanup_removes_the_jobs_state(run: PlaybookRun) -> None:
    assert result(run, "the job's state is gone")["stat"]["exists"] is False


def test_an_async_task_in_check_mode_runs_its_module_in_check_mode(inventory_path: Path, tmp_path: Path) -> None:
    # ansible-core 2.19 no longer refuses async in check mode: the module runs, predicting as any checked module
    playbook = tmp_path / "check.yml"
    playbook.write_text("- hosts: host1\n  gather_facts: false\n  tasks:\n"
                        "    - name: waited\n      file: {path: /tmp/async-check-waited, state: touch}\n"
                        "      async: 10\n      poll: 1\n"
                        "    - name: not there\n      stat: {path: /tmp/async-check-waited}\n      check_mode: false\n")
    checked = run_playbook(inventory_path, str(playbook), "--check")
    assert checked.exit_code == 0, checked.output
    waited = checked.tasks("waited")[0]["host1"]
    assert waited["changed"] is True and waited["finished"] is True
    assert re.fullmatch(r"j\d+\.\d+", waited["ansible_job_id"])
    assert checked.tasks("not there")[0]["host1"]["stat"]["exists"] is False


def test_an_action_that_runs_on_the_controller_refuses_async_as_ansibles_does(inventory_path: Path,
                                                                              tmp_path: Path) -> None:
    playbook = tmp_path / "copy.yml"
    playbook.write_text("- hosts: host1\n  gather_facts: false\n  tasks:\n"
                        "    - name: copy\n      copy:\n        content: hi\n        dest: /tmp/async-copy\n"
                        "      async: 10\n      poll: 0\n      ignore_errors: true\n"
                        "    - name: script\n      script: /nonexistent/run.sh\n      async: 5\n")
    refused = run_playbook(inventory_path, str(playbook))
    assert refused.exit_code == 2, refused.output
    assert refused.tasks("copy")[0]["host1"]["msg"] == "This action (copy) does not support async."
    assert refused.tasks("script")[0]["host1"]["msg"] == "This action (script) does not support async."


def test_a_templated_poll_that_is_not_a_number_fails_the_task(inventory_path: Path, tmp_path: Path) -> None:
    playbook = tmp_path / "poll.yml"
    playbook.write_text("- hosts: host1\n  gather_facts: false\n  vars:\n    every: often\n  tasks:\n"
                        "    - name: polled\n      command: echo hi\n      async: 10\n      poll: '{{ every }}'\n")
    failed = run_playbook(inventory_path, str(playbook))
    assert failed.exit_code == 2, failed.output
    assert failed.tasks("polled")[0]["host1"]["msg"].startswith("'poll' must be a whole number, got 'often'")


def test_jobs_keep_their_state_where_ansible_async_dir_says(inventory_path: Path, tmp_path: Path) -> None:
    playbook = tmp_path / "dir.yml"
    playbook.write_text("""
- hosts: host1
  gather_facts: false
  vars: {custom: /tmp/async-custom-dir}
  tasks:
    - file: {path: "{{ custom }}", state: absent}
    - name: started
      command: echo moo
      async: 5
      poll: 0
      register: job
      vars: {ansible_async_dir: "{{ custom }}"}
    - name: in the default directory
      async_status: {jid: "{{ job.ansible_job_id }}"}
      register: missing
      ignore_errors: true
    - name: in the custom directory
      async_status: {jid: "{{ job.ansible_job_id }}"}
      register: found
      until: found is finished
      retries: 20
      delay: 0.5
      vars: {ansible_async_dir: "{{ custom }}"}
    - name: the directory
      stat: {path: "{{ custom }}"}
""")
    run = run_playbook(inventory_path, str(playbook))
    assert run.exit_code == 0, run.output
    assert re.fullmatch(r"j\d+\.\d+", run.tasks("started")[0]["host1"]["ansible_job_id"])
    assert run.tasks("in the default directory")[0]["host1"]["msg"] == "could not find job"
    assert run.tasks("in the custom directory")[0]["host1"]["stdout"] == "moo"
    assert run.tasks("the directory")[0]["host1"]["stat"]["isdir"] is True


NOISY_MODULE = """
import sys

from ansible.module_utils.basic import AnsibleModule

module = AnsibleModule(argument_spec={})
print("said on stderr", file=sys.stderr)
module.exit_json(changed=False)
"""


def test_a_waited_for_task_is_an_async_job_as_in_ansible(inventory_path: Path, tmp_path: Path) -> None:
    """Waited for (poll > 0), a task still makes its async directory, carries what an Ansible-API module printed
    on stderr, and the output has Ansible's ASYNC POLL lines for the polls that found it running, then ASYNC OK."""
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "noisy.py").write_text(NOISY_MODULE)
    playbook = tmp_path / "waited.yml"
    playbook.write_text("""
- hosts: host1
  gather_facts: false
  vars: {custom: /tmp/async-waited-dir}
  tasks:
    - file: {path: "{{ custom }}", state: absent}
    - name: waited for
      command: sleep 3
      async: 10
      poll: 1
      vars: {ansible_async_dir: "{{ custom }}"}
    - name: the directory
      stat: {path: "{{ custom }}"}
    - name: noisy
      noisy:
      async: 10
      poll: 1
    - name: noisy in the foreground
      noisy:
""")
    run = run_playbook(inventory_path, str(playbook))
    assert run.exit_code == 0, run.output
    assert run.tasks("the directory")[0]["host1"]["stat"]["isdir"] is True
    assert run.tasks("noisy")[0]["host1"]["stderr"] == "said on stderr\n"
    assert "stderr" not in run.tasks("noisy in the foreground")[0]["host1"]  # only an async job's result has it
    jid = run.tasks("waited for")[0]["host1"]["ansible_job_id"]
    polls = re.findall(rf"^ASYNC POLL on host1: jid={re.escape(jid)} started=True finished=False$", run.output,
                       re.MULTILINE)
    assert 1 <= len(polls) <= 3, run.output
    assert f"ASYNC OK on host1: jid={jid}\n" in run.output
