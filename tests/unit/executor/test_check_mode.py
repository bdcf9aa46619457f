"""Check mode of copy, file and lineinfile (and template, which is copy's): nothing changes on disk, ``changed``
is predicted, and the real run that follows changes exactly what the check said it would. What command, shell, raw
and script register when check mode skips them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.executor.conftest import LocalHosts
from tests.unit.executor.file_state import snapshot

TASKS = """
- hosts: h1
  gather_facts: false
  vars:
    who: world
  tasks:
    - name: copy over a file
      copy: {content: "new\\n", dest: "{{ workdir }}/existing.txt"}
    - name: copy to a new file
      copy: {content: "fresh\\n", dest: "{{ workdir }}/new.txt"}
    - name: copy the same content
      copy: {content: "same\\n", dest: "{{ workdir }}/same.txt"}
    - name: make a directory
      file: {path: "{{ workdir }}/newdir", state: directory}
    - name: change a mode
      file: {path: "{{ workdir }}/same.txt", mode: "0600"}
    - name: touch a file
      file: {path: "{{ workdir }}/touched", state: touch}
    - name: replace a line
      lineinfile: {path: "{{ workdir }}/config", regexp: "^b=", line: "b=3"}
    - name: add a line
      lineinfile: {path: "{{ workdir }}/config", line: "c=4"}
    - name: a line already there
      lineinfile: {path: "{{ workdir }}/config", line: "a=1"}
    - name: render a template
      template: {src: "{{ workdir }}/../name.j2", dest: "{{ workdir }}/rendered"}
    - name: remove a file
      file: {path: "{{ workdir }}/doomed", state: absent}
"""

UNCHANGED = {"copy the same content", "a line already there"}


@pytest.fixture
def prepared(local_hosts: LocalHosts) -> Path:
    """h1's work dir with the files the tasks change; the template beside it."""
    workdir = local_hosts.workdir("h1")
    (workdir / "existing.txt").write_text("old line\n")
    (workdir / "same.txt").write_text("same\n")
    (workdir / "same.txt").chmod(0o644)
    (workdir / "config").write_text("a=1\nb=2\n")
    (workdir / "rendered").write_text("name=old\n")
    (workdir / "doomed").write_text("going\n")
    (local_hosts.base / "name.j2").write_text("name={{ who }}\n")
    return workdir


def changed(run_tasks: dict[str, dict[str, object]]) -> dict[str, bool]:
    return {name: bool(result.get("changed")) for name, result in run_tasks.items()}


def test_check_mode_predicts_changes_and_touches_nothing(local_hosts: LocalHosts, prepared: Path) -> None:
    before = snapshot(prepared)
    check = local_hosts.play(TASKS, "--check")
    assert check.exit_code == 0, check.output
    predicted = changed({t["task"]["name"]: t["hosts"]["h1"] for t in check.report["plays"][0]["tasks"]})
    assert predicted == {name: name not in UNCHANGED for name in predicted}
    assert snapshot(prepared) == before

    real = local_hosts.play(TASKS)
    assert real.exit_code == 0, real.output
    assert changed({t["task"]["name"]: t["hosts"]["h1"] for t in real.report["plays"][0]["tasks"]}) == predicted
    assert (prepared / "existing.txt").read_text() == "new\n"
    assert (prepared / "config").read_text() == "a=1\nb=3\nc=4\n"
    assert (prepared / "rendered").read_text() == "name=world\n"
    assert (prepared / "same.txt").stat().st_mode & 0o777 == 0o600
    assert (prepared / "newdir").is_dir() and (prepared / "touched").exists()
    assert not (prepared / "doomed").exists()


def test_check_mode_per_task_overrides_the_run(local_hosts: LocalHosts, prepared: Path) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: always checked
              copy: {content: "new\\n", dest: "{{ workdir }}/existing.txt"}
              check_mode: true
            - name: never checked
              copy: {content: "written\\n", dest: "{{ workdir }}/written.txt"}
              check_mode: false
        """, "--check")
    assert run.exit_code == 0, run.output
    assert (prepared / "existing.txt").read_text() == "old line\n"
    assert (prepared / "written.txt").read_text() == "written\n"
    assert run.task("always checked")["h1"]["changed"] is True


def test_a_check_run_carries_predicted_paths_to_later_tasks(local_hosts: LocalHosts, prepared: Path) -> None:
    # The agent remembers the paths earlier tasks of a check run would create or remove (docs/decisions.md), so a
    # later task sees them as the real run would: editing the removed file fails, as it will for real (ansible-core's
    # check run reports a change there instead).
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: make a directory
              file: {path: "{{ workdir }}/conf.d", state: directory}
            - name: copy into it
              copy: {content: "x=1\\n", dest: "{{ workdir }}/conf.d/x.conf"}
            - name: remove a file
              file: {path: "{{ workdir }}/config", state: absent}
            - name: edit the removed file
              lineinfile: {path: "{{ workdir }}/config", line: "c=4"}
        """, "--check")
    assert run.exit_code == 2, run.output
    assert run.task("copy into it")["h1"]["changed"] is True
    assert "does not exist" in run.task("edit the removed file")["h1"]["msg"]
    assert not (prepared / "conf.d").exists() and (prepared / "config").exists()


def test_commands_skipped_in_check_mode_register_ansible_cores_results(local_hosts: LocalHosts) -> None:
    # As ansible-core 2.19 and 2.21 register them: command and shell ask their module, which names the command it
    # would have run; raw and script are skipped by their actions with nothing else; every result says `failed`.
    (local_hosts.base / "hello.sh").write_text("#!/bin/sh\necho hi\n")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars: {ansible_python_interpreter: "{{ ansible_playbook_python }}"}
          tasks:
            - {command: echo hi, register: command}
            - {shell: echo hi, register: shell}
            - {command: echo hi, args: {creates: /}, register: created}
            - {raw: echo hi, register: raw}
            - {script: hello.sh, register: script}
            - name: show
              debug:
                msg: "{{ {'command': command, 'shell': shell, 'created': created, 'raw': raw, 'script': script} }}"
        """, "--check")
    assert run.exit_code == 0, run.output
    shown = run.msg("show")["h1"]
    not_run = {"changed": False, "failed": False, "rc": 0, "stderr": "", "stderr_lines": [], "start": None,
               "end": None, "delta": None}
    would_run = {**not_run, "skipped": True, "msg": "Command would have run if not in check mode", "stdout": "",
                 "stdout_lines": []}
    assert shown["command"] == {**would_run, "cmd": ["echo", "hi"]}
    assert shown["shell"] == {**would_run, "cmd": "echo hi"}
    assert shown["created"] == {**not_run, "cmd": ["echo", "hi"], "msg": "Would not run command since '/' exists",
                                "stdout": "skipped, since / exists", "stdout_lines": ["skipped, since / exists"]}
    assert shown["raw"] == {"changed": False, "failed": False, "skipped": True}
    assert shown["script"] == {"changed": False, "failed": False, "skipped": True,
                               "msg": "Check mode is not supported for this task."}
