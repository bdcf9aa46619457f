"""The run records' pages in headless Chromium (Debian's, driven by Playwright): the run list, a failed run's
timeline, the failed task's message and diff, and a running run followed live until it ends."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.secrets import censor
from tests.support.records import run_in_process, start_run, write
from tests.support.records_web import serving

CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT_MS = 60_000

FAILING = """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: say hello
      debug:
        msg: hello
    - name: render the <motd> files
      copy:
        content: "welcome to prod\\n"
        dest: "{{ item }}"
      loop: ["{{ out }}/motd", /nonexistent/motd]
"""
WAITING = """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: get ready
      debug:
        msg: ready
    - name: wait for the release
      wait_for:
        path: "{{ release }}"
        timeout: 120
    - name: released
      debug:
        msg: done
"""

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is in the test extras")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A failed run recorded (run 1), before the browser starts: Playwright's driver runs an event loop in
    this thread, and an in-process run starts its own."""
    project = tmp_path_factory.mktemp("records-web-browser")
    (project / "out").mkdir()
    try:
        failed = run_in_process(write(project, "site.yml", FAILING), str(project / "runs.db"),
                                "-e", f"out={project / 'out'}", "--diff")
    finally:
        censor.forget_all()
    assert failed.exit_code == 2, failed.output
    yield project


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("Chromium is not installed (Debian package chromium, in .ci/packages.txt)")
    with sync_api.sync_playwright() as playwright:
        # As root, Chromium's sandbox cannot start; the pages it opens are the test's own.
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def test_a_failed_run_its_failed_task_and_a_running_run_followed_live(project: Path, browser: Any) -> None:
    database = str(project / "runs.db")
    expect = sync_api.expect
    with serving(database) as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)

        page.goto(f"{base}/")
        row = page.locator("tr.run-row").first
        expect(row.locator(".status")).to_have_text("failed")
        expect(row.locator("td.playbook")).to_contain_text("site.yml")
        page.screenshot(path=str(project / "runs.png"), full_page=True)

        row.get_by_role("link", name="1", exact=True).click()
        expect(page.locator("h1")).to_contain_text("Run 1")
        expect(page.locator("#live .summary .status")).to_have_text("failed")
        failed_cell = page.locator("table.timeline a.cell.st-failed")
        expect(failed_cell).to_have_count(1)
        expect(page.locator("table.timeline th.task").filter(has_text="render the <motd> files")).to_have_count(1)
        page.screenshot(path=str(project / "failed-run.png"), full_page=True)

        failed_cell.click()
        expect(page.locator("h1")).to_contain_text("render the <motd> files")
        expect(page.locator("pre.msg")).to_have_text("One or more items failed")
        expect(page.locator("table.items")).to_contain_text("Destination directory /nonexistent does not exist")
        expect(page.locator("pre.diff .add")).to_have_text("+welcome to prod")
        page.screenshot(path=str(project / "failed-task.png"), full_page=True)

        release = project / "release"
        running = start_run(write(project, "wait.yml", WAITING), database, "-e", f"release={release}")
        try:
            _follow_a_running_run(page, base, release, expect, project)
            assert running.wait(timeout=120) == 0
        finally:
            if running.poll() is None:
                os.killpg(running.pid, signal.SIGKILL)
                running.wait()
            assert running.stdout is not None
            running.stdout.close()


def _follow_a_running_run(page: Any, base: str, release: Path, expect: Any, shots: Path) -> None:
    page.goto(f"{base}/?status=running")
    row = page.locator("tr.run-row")
    for _ in range(120):  # the run records itself within a second or two of starting
        if row.count():
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(row.locator(".status")).to_have_text("running")
    row.locator("a").first.click()
    live = page.locator("#live")
    expect(live.locator(".summary .status")).to_have_text("running")
    expect(live.locator("a.cell.st-ok")).to_have_count(1)  # "get ready" done; the wait still going
    page.screenshot(path=str(shots / "running.png"), full_page=True)

    release.touch()
    # No reload: the page's script fetches the run's section again until the run has ended.
    expect(live.locator(".summary .status")).to_have_text("ok")
    expect(page.locator("#live a.cell.st-ok")).to_have_count(3)
    expect(page.locator("#live .spinner")).to_have_count(0)
    page.screenshot(path=str(shots / "finished.png"), full_page=True)
