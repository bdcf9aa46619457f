"""Run records in a real PostgreSQL started by the tests: migrations, a recorded run read back, two runs at once."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.records import (
    TASKS,
    busy_playbook,
    migrate_and_compare,
    rows,
    run_in_process,
    runs_command,
    start_run,
    write,
)

PLAYBOOK = """
- hosts: localhost
  tasks:
    - name: say hello
      debug:
        msg: hello
    - name: change something
      command: "true"
"""


def test_migrations_from_the_first_revision_match_the_schema_in_postgres(postgres_url: str) -> None:
    assert migrate_and_compare(postgres_url) == []


def test_a_run_recorded_into_postgres_reads_back(tmp_path: Path, postgres_url: str) -> None:
    playbook = write(tmp_path, "site.yml", PLAYBOOK)
    assert run_in_process(playbook, postgres_url).exit_code == 0
    [run] = rows(postgres_url, "runs")
    assert run["status"] == "ok" and run["started_at"].tzinfo is not None
    results = rows(postgres_url, "host_results")
    assert [r["status"] for r in results] == ["ok", "ok", "changed"]
    assert rows(postgres_url, "host_facts", order="host")[0]["facts"]["system"] == "Linux"

    shown = runs_command(postgres_url, "show", str(run["id"]), "--out", "json")
    assert shown.returncode == 0, shown.stderr
    detail = json.loads(shown.stdout)
    assert [task["name"] for task in detail["plays"][0]["tasks"]] == ["Gathering Facts", "say hello",
                                                                     "change something"]
    listed = runs_command(postgres_url, "list", "--host", "localhost")
    assert listed.returncode == 0 and "site.yml" in listed.stdout


def test_two_runs_at_once_into_postgres_lose_nothing(tmp_path: Path, postgres_url: str) -> None:
    first = start_run(busy_playbook(tmp_path, "one.yml"), postgres_url)
    second = start_run(busy_playbook(tmp_path, "two.yml"), postgres_url)
    for process in (first, second):
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output
        assert "WARNING" not in output, output
    runs = rows(postgres_url, "runs")
    assert {run["status"] for run in runs} == {"ok"} and len(runs) == 2
    results = rows(postgres_url, "host_results")
    for run in runs:
        assert len([r for r in results if r["run_id"] == run["id"]]) == TASKS
