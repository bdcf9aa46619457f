"""Run records in SQLite: a local-connection playbook run in-process, recorded, and read back row by row."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.secrets import censor
from tests.support.records import rows, run_in_process, write

SECRET = "correct-horse-battery-staple"

SITE = """
- hosts: localhost
  vars_files: [vars/main.yml]
  roles: [greeter]
  tasks:
    - name: say hello
      debug:
        msg: "hello {{ who }}"
    - name: write a file
      copy:
        content: "{{ content }}\\n"
        dest: "{{ target }}"
      notify: announce
    - name: a task that fails, ignored
      command: "false"
      ignore_errors: true
    - name: loop
      debug:
        msg: "item {{ item }}"
      loop: [1, 2]
    - name: secret task
      debug:
        msg: "the password is {{ password }}"
      no_log: true
    - name: greet with a known secret
      debug:
        msg: "token {{ greeting }}"
  handlers:
    - name: announce
      debug:
        msg: "written"
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    write(tmp_path, "site.yml", SITE)
    write(tmp_path, "vars/main.yml", f"who: world\npassword: {SECRET}\n")
    write(tmp_path, "roles/greeter/tasks/main.yml", "- name: role task\n  debug:\n    msg: from the role\n")
    write(tmp_path, "roles/greeter/defaults/main.yml", "unused: 1\n")
    yield tmp_path
    censor.forget_all()


def _run(project: Path, database: str, content: str, *args: str) -> None:
    censor.remember("vault-decrypted-value")  # as a vault value once decrypted: masked everywhere
    result = run_in_process(project / "site.yml", database, "-e", f"target={project / 'out.txt'}",
                            "-e", f"content={content}", "-e", "greeting=vault-decrypted-value",
                            "-e", "api_token=abc123xyz", "--diff", *args)
    assert result.exit_code == 0, result.output


def test_a_run_is_recorded_with_its_plays_tasks_results_facts_and_files(project: Path) -> None:
    database = str(project / "runs.db")
    _run(project, database, "first")

    [run] = rows(database, "runs")
    assert run["kind"] == "playbook" and run["status"] == "ok" and run["exit_code"] == 0
    assert run["playbook"] == str(project / "site.yml") and run["project_path"] == str(project)
    assert run["command"].startswith("provisioning-playbook ") and "api_token=********" in run["command"]
    assert "vault-decrypted-value" not in run["command"]
    assert re.fullmatch(r"[0-9a-f]{64}", run["plan_hash"])
    assert run["ended_at"] >= run["started_at"] and not run["check_mode"] and run["diff_mode"]

    [play] = rows(database, "plays")
    assert (play["name"], play["pattern"], play["position"]) == ("localhost", "localhost", f"{project}/site.yml:1:3")
    tasks = {task["name"]: task for task in rows(database, "tasks")}
    assert list(tasks) == ["Gathering Facts", "greeter : role task", "say hello", "write a file",
                           "a task that fails, ignored", "loop", "secret task", "greet with a known secret",
                           "announce"]
    assert (tasks["say hello"]["file"], tasks["say hello"]["line"]) == (f"{project}/site.yml", 5)
    assert tasks["greeter : role task"]["role"] == "greeter"
    assert tasks["announce"]["is_handler"] and not tasks["say hello"]["is_handler"]

    results = {row["task_id"]: row for row in rows(database, "host_results")}
    by_name = {name: results[task["id"]] for name, task in tasks.items()}
    assert all(row["host"] == "localhost" for row in results.values())
    assert by_name["say hello"]["result"]["msg"] == "hello world"
    assert by_name["write a file"]["status"] == "changed" and by_name["write a file"]["changed"]
    assert by_name["write a file"]["diff"]["after"] == "first\n"
    assert "diff" not in by_name["write a file"]["result"]
    assert by_name["a task that fails, ignored"]["status"] == "failed"
    assert by_name["a task that fails, ignored"]["ignored"]
    assert [item["msg"] for item in by_name["loop"]["result"]["results"]] == ["item 1", "item 2"]
    assert by_name["secret task"]["result"]["censored"].startswith("the output has been hidden")
    assert by_name["greet with a known secret"]["result"]["msg"] == "token ********"
    assert "ansible_facts" not in by_name["Gathering Facts"]["result"]  # facts go to host_facts, once per host
    assert all(isinstance(row["duration"], float) for row in results.values())

    [facts] = rows(database, "host_facts", order="host")
    assert facts["host"] == "localhost" and facts["run_id"] == run["id"] and facts["facts"]["system"] == "Linux"
    [counts] = rows(database, "run_hosts", order="host")
    # As the recap counts them: the ignored failure (a command, so changed) is also ok and changed.
    assert (counts["ok"], counts["changed"], counts["failed"], counts["ignored"]) == (9, 2, 0, 1)

    listed = {Path(row["path"]).relative_to(project).as_posix(): row for row in rows(database, "run_files", "path")}
    assert listed.keys() == {"site.yml", "vars/main.yml", "roles/greeter/tasks/main.yml",
                             "roles/greeter/defaults/main.yml"}
    assert listed["vars/main.yml"]["kind"] == "vars" and listed["roles/greeter/defaults/main.yml"]["kind"] == "role"
    contents = {row["sha256"]: row["content"] for row in rows(database, "files", "sha256")}
    site = (project / "site.yml").read_bytes()
    assert contents[hashlib.sha256(site).hexdigest()] == site

    # Nothing secret anywhere in the file: no_log results, masked values, the command line.
    raw = Path(database).read_bytes() + b"".join(p.read_bytes() for p in project.glob("runs.db-*"))
    assert b"vault-decrypted-value" not in raw and b"abc123xyz" not in raw
    assert SECRET.encode() not in b"".join(json.dumps(row["result"]).encode() for row in results.values())


def test_a_file_read_by_many_runs_is_stored_once(project: Path) -> None:
    database = str(project / "runs.db")
    _run(project, database, "first")
    stored = len(rows(database, "files", "sha256"))
    _run(project, database, "second")
    assert len(rows(database, "runs")) == 2
    assert len(rows(database, "files", "sha256")) == stored
    assert len(rows(database, "run_files", "path")) == 2 * stored


def test_a_failed_run_is_recorded_failed(tmp_path: Path) -> None:
    playbook = write(tmp_path, "fail.yml", """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: breaks
              command: "false"
        """)
    database = str(tmp_path / "runs.db")
    assert run_in_process(playbook, database).exit_code == 2
    [run] = rows(database, "runs")
    assert (run["status"], run["exit_code"]) == ("failed", 2)
    [result] = rows(database, "host_results")
    assert result["status"] == "failed" and result["result"]["rc"] == 1


def test_check_mode_is_recorded(tmp_path: Path) -> None:
    playbook = write(tmp_path, "check.yml", """
        - hosts: localhost
          gather_facts: false
          tasks:
            - command: "true"
        """)
    database = str(tmp_path / "runs.db")
    assert run_in_process(playbook, database, "--check").exit_code == 0
    [run] = rows(database, "runs")
    assert run["check_mode"] and run["status"] == "ok"


def test_recording_switched_off_writes_nothing(tmp_path: Path) -> None:
    playbook = write(tmp_path, "off.yml", "- hosts: localhost\n  gather_facts: false\n  tasks:\n    - ping:\n")
    database = tmp_path / "runs.db"
    assert run_in_process(playbook, str(database), record_runs="false").exit_code == 0
    assert not database.exists()


def test_an_unsupported_database_is_a_bad_option(tmp_path: Path) -> None:
    playbook = write(tmp_path, "bad.yml", "- hosts: localhost\n  gather_facts: false\n  tasks:\n    - ping:\n")
    result = run_in_process(playbook, "mysql://user:pw@127.0.0.1/runs")
    assert result.exit_code == 5
    assert "runs_database: unsupported database 'mysql'" in result.output and "Traceback" not in result.output


def test_a_database_that_cannot_be_written_costs_a_warning_not_the_run(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    playbook = write(tmp_path, "ok.yml", "- hosts: localhost\n  gather_facts: false\n  tasks:\n    - ping:\n")
    result = run_in_process(playbook, str(blocker / "runs.db"))
    assert result.exit_code == 0, result.output
    assert "[WARNING]: run records: cannot write to" in result.output and "Traceback" not in result.output


def test_an_adhoc_run_is_recorded_as_one_play_of_one_task(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from runner.cli.adhoc import main
    from tests.support.records import LOCAL, record_env

    database = str(tmp_path / "runs.db")
    result = CliRunner().invoke(main, ["localhost", *LOCAL, "-m", "command", "-a", "echo recorded"],
                                env=record_env(tmp_path, database), prog_name="provisioning")
    assert result.exit_code == 0, result.output
    [run] = rows(database, "runs")
    assert (run["kind"], run["status"], run["playbook"]) == ("adhoc", "ok", None)
    assert run["command"] == ("provisioning localhost -i localhost, -c local -e "
                              f"ansible_python_interpreter={sys.executable} -m command -a 'echo recorded'")
    [play] = rows(database, "plays")
    assert (play["name"], play["pattern"]) == ("ad-hoc command", "localhost")
    [row] = rows(database, "host_results")
    assert row["status"] == "changed" and row["result"]["stdout"] == "recorded"
    [counts] = rows(database, "run_hosts", order="host")
    assert (counts["host"], counts["changed"]) == ("localhost", 1)


def test_a_result_holding_text_that_is_not_unicode_is_recorded_escaped(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # from_json lets the lone surrogate through only with the strict check off (it is on by default, as in Ansible)
    monkeypatch.setenv("ANSIBLE_MODULE_STRICT_UTF8_RESPONSE", "0")
    playbook = write(tmp_path, "surrogate.yml", """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: lone surrogate
              debug:
                msg: "{{ '\\"hi \\\\udc80 mom\\"' | from_json }}"
        """)
    database = str(tmp_path / "runs.db")
    run = run_in_process(playbook, database)
    assert run.exit_code == 0 and "not recorded" not in run.output, run.output
    assert '"msg": "hi ? mom"' in run.output  # shown as ansible-core shows it
    [result] = rows(database, "host_results")
    assert result["result"]["msg"] == "hi \udc80 mom"
