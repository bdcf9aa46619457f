"""``provisioning-runs serve``'s JSON API on a real server (a free loopback port), over a database filled by
real local-connection runs: pages and filters, each resource, errors as statuses, nothing secret served."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from runner.records.web.openapi import PATHS
from runner.secrets import censor
from tests.support.records import run_in_process, start_run, write
from tests.support.records_web import fetch, serving

SECRET = "correct-horse-battery-staple"
SITE = """
- hosts: localhost
  gather_facts: false
  vars_files: [vars/main.yml]
  tasks:
    - name: write the <b>motd</b> files
      copy:
        content: "welcome to <b>prod</b>\\n"
        dest: "{{ item }}"
      loop: ["{{ out }}/motd", "{{ second }}"]
    - name: use the password
      debug:
        msg: "the password is {{ password }}"
      no_log: true
"""
OTHER = "- hosts: localhost\n  gather_facts: false\n  tasks:\n    - name: ping\n      ping:\n"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Three runs (ids 1, 2, 3): site.yml ok, site.yml failing on a loop item after a change (a diff),
    other.yml ok; then the server over them."""
    project = tmp_path_factory.mktemp("records-web-api")
    database = str(project / "runs.db")
    site = write(project, "site.yml", SITE)
    write(project, "vars/main.yml", f"password: {SECRET}\n")
    out = project / "out"
    out.mkdir()
    try:
        assert run_in_process(site, database, "-e", f"out={out}", "-e", f"second={out}/motd2",
                              "--diff").exit_code == 0
        (out / "motd").unlink()
        failed = run_in_process(site, database, "-e", f"out={out}", "-e", "second=/nonexistent/motd", "--diff")
        assert failed.exit_code == 2, failed.output
        assert run_in_process(write(project, "other.yml", OTHER), database).exit_code == 0
    finally:
        censor.forget_all()
    with serving(database) as url:
        yield url


def _json(url: str) -> object:
    answer = fetch(url)
    assert answer.status == 200, answer.text
    assert answer.headers["Content-Type"].startswith("application/json")
    return answer.json()


def test_runs_newest_first_paged_with_totals_and_filters(base: str) -> None:
    listed = _json(f"{base}/api/runs")
    assert listed["total"] == 3 and listed["next"] is None and listed["offset"] == 0
    assert [(run["id"], run["status"], Path(run["playbook"]).name) for run in listed["items"]] == [
        (3, "ok", "other.yml"), (2, "failed", "site.yml"), (1, "ok", "site.yml")]
    assert listed["items"][1]["failed_hosts"] == 1 and listed["items"][1]["duration"] > 0

    first = _json(f"{base}/api/runs?limit=2")
    assert [run["id"] for run in first["items"]] == [3, 2] and first["total"] == 3
    second = _json(base + first["next"])
    assert [run["id"] for run in second["items"]] == [1] and second["next"] is None

    assert [run["id"] for run in _json(f"{base}/api/runs?playbook=site.yml")["items"]] == [2, 1]
    assert [run["id"] for run in _json(f"{base}/api/runs?status=failed")["items"]] == [2]
    assert _json(f"{base}/api/runs?host=nowhere") == {"total": 0, "limit": 50, "offset": 0, "items": [],
                                                      "next": None}
    assert _json(f"{base}/api/runs?since=1h")["total"] == 3
    assert _json(f"{base}/api/runs?since=2999-01-01")["total"] == 0
    paged = _json(f"{base}/api/runs?playbook=site.yml&limit=1")
    assert paged["total"] == 2 and "playbook=site.yml" in paged["next"]


@pytest.mark.parametrize(("query", "message"), [
    ("status=bogus", "status='bogus': expected one of running, ok, failed"),
    ("limit=x", "limit='x': expected a whole number"),
    ("limit=501", "limit=501: expected 1 to 500"),
    ("offset=-1", "offset=-1: expected 0 to"),
    ("since=yesterday", "since 'yesterday': expected a duration"),
])
def test_a_bad_parameter_is_a_400_naming_it(base: str, query: str, message: str) -> None:
    answer = fetch(f"{base}/api/runs?{query}")
    assert answer.status == 400 and message in answer.json()["error"]


def test_a_run_its_plays_tasks_hosts_and_files(base: str) -> None:
    run = _json(f"{base}/api/runs/2")
    assert run["status"] == "failed" and run["exit_code"] == 2 and run["diff_mode"]
    assert run["command"].startswith("provisioning-playbook ")
    assert run["hosts"] == [{"host": "localhost", "ok": 0, "changed": 0, "unreachable": 0, "failed": 1,
                             "skipped": 0, "rescued": 0, "ignored": 0}]
    [play] = _json(f"{base}/api/runs/2/plays")
    assert play["name"] == "localhost" and play["position"].endswith("site.yml:1:3")
    tasks = _json(f"{base}/api/runs/1/tasks")
    assert [task["name"] for task in tasks["items"]] == ["write the <b>motd</b> files", "use the password"]
    assert tasks["items"][0]["module"] == "copy" and tasks["items"][0]["line"] == 5
    assert [task["name"] for task in _json(f"{base}/api/runs/1/tasks?limit=1&offset=1")["items"]] == [
        "use the password"]
    files = _json(f"{base}/api/runs/1/files")
    assert {(Path(f["path"]).name, f["kind"]) for f in files} == {("site.yml", "playbook"), ("main.yml", "vars")}
    assert all(set(f) == {"path", "kind", "sha256"} for f in files)  # never the content


def test_results_filtered_and_one_result_with_its_diff(base: str) -> None:
    failed = _json(f"{base}/api/runs/2/results?status=failed")
    [result] = failed["items"]
    assert failed["total"] == 1 and result["host"] == "localhost" and result["msg"] == "One or more items failed"
    assert "result" not in result  # a page of results is light: the whole result is one request away
    assert _json(f"{base}/api/runs/2/results?host=elsewhere")["total"] == 0
    full = _json(f"{base}/api/results/{result['id']}")
    assert full["task"]["name"] == "write the <b>motd</b> files" and full["status"] == "failed"
    [diff] = full["diff"]
    assert diff["after"] == "welcome to <b>prod</b>\n" and diff["before_header"].endswith("/motd")
    assert [item.get("msg") for item in full["result"]["results"]][1] == \
        "Destination directory /nonexistent does not exist"


def test_timeline_is_each_task_with_each_hosts_result(base: str) -> None:
    timeline = _json(f"{base}/api/runs/2/timeline")
    assert timeline["hosts"] == ["localhost"]
    assert [(task["name"], task["results"]["localhost"]["status"]) for task in timeline["tasks"]] == [
        ("write the <b>motd</b> files", "failed")]
    assert [task["name"] for task in _json(f"{base}/api/runs/1/timeline")["tasks"]] == [
        "write the <b>motd</b> files", "use the password"]


def test_hosts_and_a_hosts_history_without_its_facts(base: str) -> None:
    hosts = _json(f"{base}/api/hosts")
    assert hosts["total"] == 1 and hosts["items"][0]["host"] == "localhost" and hosts["items"][0]["runs"] == 3
    history = _json(f"{base}/api/hosts/localhost")
    assert [run["id"] for run in history["runs"]] == [3, 2, 1]
    assert history["last_failed"]["run"] == 2 and history["last_changed"]["run"] == 1
    assert "facts" not in history
    assert [run["id"] for run in _json(f"{base}/api/hosts/localhost?limit=1&offset=1")["runs"]] == [2]


@pytest.mark.parametrize("path", ["/api/runs/99", "/api/runs/99/tasks", "/api/results/999", "/api/hosts/nowhere",
                                  "/api/nothing", "/api/runs/abc"])
def test_what_is_not_recorded_is_a_404(base: str, path: str) -> None:
    answer = fetch(base + path)
    assert answer.status == 404 and answer.json()["error"]


def test_every_described_path_answers_and_the_description_is_openapi(base: str) -> None:
    document = _json(f"{base}/api/openapi.json")
    assert document["openapi"].startswith("3.1") and document["paths"].keys() == PATHS.keys()
    for path in document["paths"]:
        concrete = path.replace("{run}", "1").replace("{result}", "1").replace("{host}", quote("localhost"))
        assert fetch(base + concrete).status == 200, path


def test_read_only_and_safe_headers(base: str) -> None:
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        answer = fetch(f"{base}/api/runs", method=method)
        assert answer.status == 405 and answer.headers["Allow"] == "GET, HEAD"
    head = fetch(f"{base}/api/runs", method="HEAD")
    assert head.status == 200 and head.body == b"" and int(head.headers["Content-Length"]) > 0
    headers = fetch(f"{base}/").headers
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["Cache-Control"] == "no-store"


def test_no_secret_is_served_and_user_content_is_escaped_in_pages(base: str) -> None:
    pages = ["/", "/runs/1", "/runs/2", "/runs/1/live", "/hosts", "/hosts/localhost"]
    results = _json(f"{base}/api/runs/1/results")["items"] + _json(f"{base}/api/runs/2/results")["items"]
    pages += [f"/results/{result['id']}" for result in results]
    api = [path.replace("{run}", str(run)).replace("{result}", str(result["id"])).replace("{host}", "localhost")
           for path in PATHS for run in (1, 2) for result in results]
    for path in pages + api:
        answer = fetch(base + path)
        assert answer.status == 200, path
        assert SECRET not in answer.text, path
    censored = _json(f"{base}/api/results/{results[1]['id']}")
    assert censored["task"]["name"] == "use the password" and "censored" in censored["result"]
    page = fetch(f"{base}/runs/2").text
    assert "write the &lt;b&gt;motd&lt;/b&gt; files" in page and "<b>" not in page
    result_page = fetch(f"{base}/results/{results[-1]['id']}").text
    assert "+welcome to &lt;b&gt;prod&lt;/b&gt;" in result_page and "<b>" not in result_page


def test_pages_answer_errors_as_pages(base: str) -> None:
    missing = fetch(f"{base}/runs/99")
    assert missing.status == 404 and missing.headers["Content-Type"].startswith("text/html")
    assert "no run 99 in the runs database" in missing.text
    assert fetch(f"{base}/?status=bogus").status == 400
    assert fetch(f"{base}/static/..%2fserver.py").status == 404
    assert fetch(f"{base}/static/app.css").headers["Content-Type"].startswith("text/css")


WAITING = """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: wait for the release
      wait_for:
        path: "{{ release }}"
        timeout: 300
"""


def _until(condition: object, what: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"still waiting for {what}"
        time.sleep(0.2)


def test_a_run_killed_outright_is_served_as_interrupted(tmp_path: Path) -> None:
    database = str(tmp_path / "runs.db")
    running = start_run(write(tmp_path, "wait.yml", WAITING), database, "-e", f"release={tmp_path / 'never'}")
    try:
        _until(lambda: Path(database).exists(), "the run's database")
        with serving(database) as base:
            def status() -> str | None:
                items = fetch(f"{base}/api/runs").json()["items"]
                return items[0]["status"] if items else None

            _until(lambda: status() == "running", "the run to be recorded as running")
            os.killpg(running.pid, signal.SIGKILL)
            running.wait(timeout=60)
            _until(lambda: status() == "interrupted", "the server to see the controller gone")
            assert fetch(f"{base}/runs/1/live").text.count('data-status="interrupted"') == 1
    finally:
        if running.poll() is None:
            os.killpg(running.pid, signal.SIGKILL)
            running.wait()
        assert running.stdout is not None
        running.stdout.close()
