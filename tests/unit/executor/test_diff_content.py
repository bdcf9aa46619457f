"""``--diff`` content of copy, lineinfile, template and file: the before and after texts and their headers, in
the result (as the JSON report has it) and as the default output prints them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.playbook_run import PlaybookRun
from tests.unit.executor.conftest import LocalHosts

TASKS = """
- hosts: h1
  gather_facts: false
  vars:
    who: world
  tasks:
    - name: copy content over a file
      copy: {content: "new\\n", dest: "{{ workdir }}/existing.txt"}
    - name: copy content to a new file
      copy: {content: "fresh\\n", dest: "{{ workdir }}/new.txt"}
    - name: copy a file
      copy: {src: "{{ workdir }}/../source.txt", dest: "{{ workdir }}/copied.txt"}
    - name: replace a line
      lineinfile: {path: "{{ workdir }}/config", regexp: "^b=", line: "b=3"}
    - name: render a template
      template: {src: "{{ workdir }}/../name.j2", dest: "{{ workdir }}/rendered"}
    - name: make a directory
      file: {path: "{{ workdir }}/newdir", state: directory}
    - name: change a mode
      file: {path: "{{ workdir }}/existing.txt", mode: "0600"}
"""


@pytest.fixture
def diff_run(local_hosts: LocalHosts) -> tuple[PlaybookRun, Path]:
    workdir = local_hosts.workdir("h1")
    (workdir / "existing.txt").write_text("old line\n")
    (workdir / "existing.txt").chmod(0o644)
    (workdir / "config").write_text("a=1\nb=2\n")
    (workdir / "rendered").write_text("name=old\n")
    (local_hosts.base / "source.txt").write_text("from the controller\n")
    (local_hosts.base / "name.j2").write_text("name={{ who }}\n")
    run = local_hosts.play(TASKS, "--check", "--diff")
    assert run.exit_code == 0, run.output
    return run, workdir


def diff_of(run: PlaybookRun, task: str) -> Any:
    return run.task(task)["h1"]["diff"]


def test_copy_diffs_the_destination_against_the_new_content(diff_run: tuple[PlaybookRun, Path]) -> None:
    run, workdir = diff_run
    dest = str(workdir / "existing.txt")
    assert diff_of(run, "copy content over a file") == {
        "before": "old line\n", "after": "new\n", "before_header": dest, "after_header": dest}
    new = str(workdir / "new.txt")
    assert diff_of(run, "copy content to a new file") == {
        "before": "", "after": "fresh\n", "before_header": new, "after_header": new}
    copied = diff_of(run, "copy a file")
    assert (copied["before"], copied["after"]) == ("", "from the controller\n")
    assert copied["after_header"].endswith("source.txt")


def test_lineinfile_diffs_the_whole_file_content(diff_run: tuple[PlaybookRun, Path]) -> None:
    run, workdir = diff_run
    header = f"{workdir / 'config'} (content)"
    assert diff_of(run, "replace a line") == {
        "before": "a=1\nb=2\n", "after": "a=1\nb=3\n", "before_header": header, "after_header": header}


def test_template_diffs_the_destination_against_the_rendered_text(diff_run: tuple[PlaybookRun, Path]) -> None:
    run, workdir = diff_run
    diff = diff_of(run, "render a template")
    assert (diff["before"], diff["after"]) == ("name=old\n", "name=world\n")
    assert diff["before_header"] == str(workdir / "rendered")
    assert diff["after_header"].endswith("name.j2")


def test_file_diffs_state_and_mode(diff_run: tuple[PlaybookRun, Path]) -> None:
    run, workdir = diff_run
    assert diff_of(run, "make a directory") == {
        "before": {"path": str(workdir / "newdir"), "state": "absent"},
        "after": {"path": str(workdir / "newdir"), "state": "directory"}}
    assert diff_of(run, "change a mode") == {
        "before": {"path": str(workdir / "existing.txt"), "mode": "0644"},
        "after": {"path": str(workdir / "existing.txt"), "mode": "0600"}}


def test_the_output_prints_unified_diffs_with_their_headers(diff_run: tuple[PlaybookRun, Path]) -> None:
    run, workdir = diff_run
    config = workdir / "config"
    assert (f"--- before: {config} (content)\n+++ after: {config} (content)\n@@ -1,2 +1,2 @@\n a=1\n-b=2\n+b=3\n"
            in run.output)
    dest = workdir / "existing.txt"
    assert f"--- before: {dest}\n+++ after: {dest}\n@@ -1 +1 @@\n-old line\n+new\n" in run.output
