"""``provisioning-playbook --resume``: a run that failed on one host, fixed by a variable, continued where each
host stopped, on SQLite and on a real PostgreSQL; refusals (changed plan, no such run, a run that did not fail).

Hosts h1-h3 are this machine over the local connection: no test host and no root needed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support.records import Run, record_env, rows, write

HOSTS = ("-i", "h1,h2,h3,", "-c", "local")

SITE = """
- hosts: all
  gather_facts: false
  vars_files: [vars.yml]
  tasks:
    - name: one
      command: "echo {{ inventory_hostname }}"
      register: first
      notify: announce
    - name: two
      set_fact:
        marker: "{{ inventory_hostname }}-two"
    - name: three
      assert:
        that: inventory_hostname not in broken
        fail_msg: "{{ inventory_hostname }} is broken"
    - name: four
      debug:
        msg: "restored {{ first.stdout }} {{ marker }}"
  handlers:
    - name: announce
      debug:
        msg: "handler on {{ inventory_hostname }}"
"""


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "runs.db")
    else:
        yield request.getfixturevalue("postgres_url")


def run(playbook: Path, database: str, *args: str) -> Run:
    from runner.cli.playbook import main

    result = CliRunner().invoke(main, [str(playbook), *HOSTS, *args], prog_name="provisioning-playbook",
                                env=record_env(playbook.parent, database))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.output)


def tasks_run(output: str) -> list[str]:
    return re.findall(r"^(?:RUNNING HANDLER|TASK) \[(.+?)\]", output, re.MULTILINE)


def recap_hosts(output: str) -> list[str]:
    recap = output.split("PLAY RECAP")[-1]
    return re.findall(r"^(h\d)\s+:", recap, re.MULTILINE)


@pytest.fixture
def failed_run(tmp_path: Path, database: str) -> Path:
    """site.yml run once: h2 fails its third task."""
    playbook = write(tmp_path, "site.yml", SITE)
    write(tmp_path, "vars.yml", "broken: [h2]\n")
    first = run(playbook, database)
    assert first.exit_code == 2, first.output
    return playbook


def _own_runs(database: str, playbook: Path) -> list[dict]:
    return [r for r in rows(database, "runs") if r["playbook"] == str(playbook.resolve())]


def test_a_fixed_host_resumes_at_its_failed_task_with_what_it_had(failed_run: Path, database: str) -> None:
    write(failed_run.parent, "vars.yml", "broken: []\n")  # the fix: a variable, the tasks unchanged
    resumed = run(failed_run, database, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "h2: play 1, at 'three'" in resumed.output
    assert recap_hosts(resumed.output) == ["h2"]  # h1 and h3 had finished: left out
    # From the failed task on; its registered result and fact are back, and so is the handler 'one' notified.
    assert tasks_run(resumed.output) == ["three", "four", "announce"]
    assert "restored h2 h2-two" in resumed.output and "handler on h2" in resumed.output

    first, second = _own_runs(database, failed_run)[-2:]
    assert (first["status"], second["status"]) == ("failed", "ok")
    results = [r for r in rows(database, "host_results") if r["run_id"] == second["id"]]
    assert {r["host"] for r in results} == {"h2"}


def test_a_resumed_run_that_fails_again_resumes_again(failed_run: Path, database: str) -> None:
    assert run(failed_run, database, "--resume").exit_code == 2  # not fixed yet: h2 fails again
    write(failed_run.parent, "vars.yml", "broken: []\n")
    again = run(failed_run, database, "--resume")
    assert again.exit_code == 0, again.output
    assert recap_hosts(again.output) == ["h2"]
    assert "restored h2 h2-two" in again.output  # restored by the first resume, recorded again by it


def test_a_changed_playbook_is_refused_unless_forced(failed_run: Path, database: str) -> None:
    failed_run.write_text(failed_run.read_text().replace("name: four", "name: four, edited"))
    refused = run(failed_run, database, "--resume")
    assert refused.exit_code == 5
    assert "site.yml changed since" in refused.output and "--force" in refused.output
    write(failed_run.parent, "vars.yml", "broken: []\n")
    forced = run(failed_run, database, "--resume", "--force")
    assert forced.exit_code == 0, forced.output
    assert recap_hosts(forced.output) == ["h2"]


def test_only_a_run_that_failed_can_be_resumed(failed_run: Path, database: str) -> None:
    write(failed_run.parent, "vars.yml", "broken: []\n")
    assert run(failed_run, database, "--resume").exit_code == 0
    nothing = run(failed_run, database, "--resume")
    assert nothing.exit_code == 5 and "ended ok: only a run that failed" in nothing.output
    missing = run(failed_run, database, "--resume", "4242")
    assert missing.exit_code == 5 and "run 4242 is not recorded" in missing.output
    checked = run(failed_run, database, "--resume", "1", "--check")
    assert checked.exit_code == 5


def test_resume_and_start_at_task_do_not_mix(tmp_path: Path) -> None:
    playbook = write(tmp_path, "site.yml", SITE)
    refused = run(playbook, str(tmp_path / "runs.db"), "--resume", "--start-at-task", "two")
    assert refused.exit_code == 5 and "cannot be used together" in refused.output


SERIAL = """
- hosts: all
  gather_facts: false
  serial: 1
  tasks:
    - name: one
      debug: {msg: "one"}
    - name: two
      assert: {that: inventory_hostname not in broken}
    - name: three
      debug: {msg: "three"}
"""


def test_serial_batches_after_the_failed_one_run_whole(tmp_path: Path) -> None:
    database = str(tmp_path / "runs.db")
    playbook = write(tmp_path, "site.yml", SERIAL)
    assert run(playbook, database, "-e", "broken=[h2]").exit_code == 2  # h2's batch fails: h3 never starts
    resumed = run(playbook, database, "-e", "broken=[]", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert recap_hosts(resumed.output) == ["h2", "h3"]
    assert re.findall(r"^ok: \[(h\d)\]", resumed.output, re.MULTILINE) == ["h2", "h2", "h3", "h3", "h3"]


INCLUDING = """
- hosts: all
  gather_facts: false
  tasks:
    - name: before
      debug: {msg: before}
    - include_tasks: steps.yml
"""
STEPS = """
- name: included one
  command: "echo one"
  register: included
- name: included two
  assert: {that: inventory_hostname not in broken}
- name: included three
  debug: {msg: "after {{ included.stdout }}"}
"""


def test_a_host_resumes_inside_a_dynamic_include(tmp_path: Path) -> None:
    database = str(tmp_path / "runs.db")
    playbook = write(tmp_path, "site.yml", INCLUDING)
    write(tmp_path, "steps.yml", STEPS)
    assert run(playbook, database, "-e", "broken=[h3]").exit_code == 2
    resumed = run(playbook, database, "-e", "broken=[]", "--resume")
    assert resumed.exit_code == 0, resumed.output
    # The include runs again to bring its tasks back; its first task, done before, does not.
    assert tasks_run(resumed.output) == ["include_tasks", "included two", "included three"]
    assert "after one" in resumed.output and recap_hosts(resumed.output) == ["h3"]


NO_LOG = """
- hosts: all
  gather_facts: false
  tasks:
    - name: secret
      command: "echo s3cret"
      register: secret
      no_log: true
    - name: fails
      assert: {that: inventory_hostname not in broken}
    - name: uses it
      debug: {msg: "{{ secret.stdout | default('gone') }}"}
"""


def test_values_set_under_no_log_are_not_recorded_nor_restored(tmp_path: Path) -> None:
    database = str(tmp_path / "runs.db")
    playbook = write(tmp_path, "site.yml", NO_LOG)
    assert run(playbook, database, "-e", "broken=[h1]").exit_code == 2
    stored = [r for r in rows(database, "host_values") if r["host"] == "h1"]
    assert stored and all(r["censored"] and r["value"] is None and r["names"] == ["secret"] for r in stored)
    resumed = run(playbook, database, "-e", "broken=[]", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "h1: not restored from run 1, set by a no_log task: secret" in resumed.output
    assert '"msg": "gone"' in resumed.output and "s3cret" not in resumed.output


ADDING = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: add it
      add_host: {name: extra, groups: [added], ansible_connection: local, marker: from-add-host}
- hosts: added
  gather_facts: false
  tasks:
    - name: checks
      assert: {that: not (broken | bool)}
    - name: after
      debug: {msg: "{{ marker }}"}
"""


def test_hosts_a_finished_play_added_are_there_for_the_resumed_plays(tmp_path: Path) -> None:
    database = str(tmp_path / "runs.db")
    playbook = write(tmp_path, "site.yml", ADDING)
    assert run(playbook, database, "-e", "broken=true").exit_code == 2
    resumed = run(playbook, database, "-e", "broken=false", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert tasks_run(resumed.output) == ["checks", "after"]  # h1's play, finished, is not run again
    assert '"msg": "from-add-host"' in resumed.output
