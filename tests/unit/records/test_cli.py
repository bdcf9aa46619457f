"""``provisioning-runs``: list with its filters, show, host, diff and prune, as tables and JSON; bad input."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.records import rows, run_in_process, runs_command, write

SITE = """
- hosts: localhost
  tasks:
    - name: slow step
      command: sleep 0.3
      changed_when: false
    - name: maybe fail
      command: "{{ outcome }}"
"""
OTHER = "- hosts: localhost\n  gather_facts: false\n  tasks:\n    - name: ping\n      ping:\n"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """Three runs: site.yml ok, site.yml edited and failing, other.yml ok (run ids 1, 2, 3)."""
    project = tmp_path_factory.mktemp("runs-cli")
    database = str(project / "runs.db")
    site = write(project, "site.yml", SITE)
    assert run_in_process(site, database, "-e", "outcome=true").exit_code == 0
    site.write_text(site.read_text() + "      tags: [outcome]\n")
    assert run_in_process(site, database, "-e", "outcome=false").exit_code == 2
    assert run_in_process(write(project, "other.yml", OTHER), database).exit_code == 0
    yield project, database


def _json(database: str, *args: str) -> object:
    done = runs_command(database, *args, "--out", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_list_newest_first_with_filters(recorded: tuple[Path, str]) -> None:
    _, database = recorded
    listed = _json(database, "list")
    assert [(run["id"], run["status"], Path(run["playbook"]).name) for run in listed] == [
        (3, "ok", "other.yml"), (2, "failed", "site.yml"), (1, "ok", "site.yml")]
    assert listed[1]["failed_hosts"] == 1 and listed[2]["changed"] == 1 and listed[0]["hosts"] == 1
    assert [run["id"] for run in _json(database, "list", "--playbook", "site.yml")] == [2, 1]
    assert [run["id"] for run in _json(database, "list", "--status", "failed")] == [2]
    assert [run["id"] for run in _json(database, "list", "--host", "localhost", "-n", "2")] == [3, 2]
    assert _json(database, "list", "--host", "nowhere") == []
    assert len(_json(database, "list", "--since", "1h")) == 3
    assert _json(database, "list", "--since", "2999-01-01") == []
    table = runs_command(database, "list").stdout.splitlines()
    assert table[0].split() == ["ID", "STARTED", "DURATION", "STATUS", "KIND", "HOSTS", "CHANGED", "FAILED",
                                "PLAYBOOK"]
    assert table[2].split()[0] == "2" and "failed" in table[2]


def test_show_gives_plays_tasks_results_and_the_slowest_tasks(recorded: tuple[Path, str]) -> None:
    project, database = recorded
    detail = _json(database, "show", "2")
    assert detail["status"] == "failed" and detail["exit_code"] == 2
    [play] = detail["plays"]
    assert [task["name"] for task in play["tasks"]] == ["Gathering Facts", "slow step", "maybe fail"]
    failing = play["tasks"][2]
    assert (failing["file"], failing["line"]) == (str(project / "site.yml"), 6)
    assert failing["hosts"][0]["status"] == "failed" and failing["hosts"][0]["result"]["rc"] == 1
    assert detail["hosts"]["localhost"]["failed"] == 1
    assert {task["name"] for task in detail["slowest_tasks"][:2]} >= {"slow step"}
    text = runs_command(database, "show", "2").stdout
    assert "PLAY [localhost]" in text and "failed: [localhost]" in text and "SLOWEST TASKS" in text


def test_host_history_with_last_change_failure_and_facts(recorded: tuple[Path, str]) -> None:
    _, database = recorded
    history = _json(database, "host", "localhost")
    assert [run["id"] for run in history["runs"]] == [3, 2, 1]
    assert history["last_failed"]["run"] == 2 and history["last_failed"]["task"] == "maybe fail"
    assert history["last_changed"]["run"] == 1 and history["last_changed"]["task"] == "maybe fail"
    assert history["facts"]["system"] == "Linux" and history["facts_run"] == 2
    text = runs_command(database, "host", "localhost").stdout
    assert "last failed: run 2" in text and "facts (run 2" in text


def test_diff_shows_the_edited_file_and_the_task_that_went_another_way(recorded: tuple[Path, str]) -> None:
    project, database = recorded
    difference = _json(database, "diff", "1", "2")
    assert difference["files"]["changed"] == [str(project / "site.yml")]
    assert difference["plan_changed"]
    [task] = difference["tasks"]
    assert task["name"] == "maybe fail"
    assert task["hosts"] == {"localhost": {"before": "changed", "after": "failed"}}
    assert "localhost: changed -> failed" in runs_command(database, "diff", "1", "2").stdout
    refused = runs_command(database, "diff", "1", "3")
    assert refused.returncode == 1 and "different playbooks" in refused.stderr


def test_bad_input_gives_a_message_and_an_exit_code(recorded: tuple[Path, str], tmp_path: Path) -> None:
    _, database = recorded
    missing = runs_command(database, "show", "99")
    assert missing.returncode == 1 and "no run 99" in missing.stderr and "Traceback" not in missing.stderr
    assert runs_command(database, "host", "nowhere").returncode == 1
    since = runs_command(database, "list", "--since", "yesterday")
    assert since.returncode == 5 and "--since 'yesterday'" in since.stderr
    assert runs_command(database, "list", "--status", "bogus").returncode == 5
    assert runs_command(database, "prune", "--older-than", "soon").returncode == 5
    nothing = runs_command(str(tmp_path / "none.db"), "list")
    assert nothing.returncode == 0 and "no runs recorded yet" in nothing.stderr
    assert not (tmp_path / "none.db").exists()
    assert runs_command(str(tmp_path / "none.db"), "show", "1").returncode == 1


def test_prune_deletes_old_runs_and_the_files_only_they_read(tmp_path: Path) -> None:
    database = str(tmp_path / "runs.db")
    old = write(tmp_path, "old.yml", OTHER)
    assert run_in_process(old, database).exit_code == 0
    assert run_in_process(write(tmp_path, "new.yml", OTHER + "    - debug: msg=new\n"), database).exit_code == 0
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE runs SET started_at = '2020-01-01 00:00:00.000000' WHERE id = 1")
    assert _json(database, "prune", "--older-than", "30d") == {"runs": 1, "files": 1}
    assert [run["id"] for run in rows(database, "runs")] == [2]
    assert {row["run_id"] for row in rows(database, "host_results")} == {2}
    assert len(rows(database, "files", "sha256")) == 1
    assert runs_command(database, "prune", "--older-than", "30d").stdout.strip() == "pruned 0 runs and 0 unused files"


def test_a_file_that_is_not_a_database_gives_a_message(tmp_path: Path) -> None:
    garbage = tmp_path / "runs.db"
    garbage.write_bytes(b"this is not a database\n" * 200)
    done = runs_command(str(garbage), "list")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"cannot read the runs database {garbage}: file is not a database" in done.stderr
