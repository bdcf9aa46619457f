"""log_path on real runs of the commands, on localhost through the local connection (no test host needed):
the log holds the lines the terminal shows, stamped and without colour, censors no_log results as the terminal
does, is created 0600 and appended to, records the error that ends a command, and a path that cannot be written
only warns."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.integration.local_run import local_project
from tests.integration.local_run import run_command as run

RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} p=(\d+) u=\S+ n=provisioning (INFO|WARNING|ERROR)\| ")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")
PLAYBOOK = """\
- hosts: localhost
  gather_facts: false
  tasks:
    - name: visible
      command: echo visible-output
    - name: secret
      command: echo topsecret
      no_log: true
    - name: secret failure
      shell: echo topsecret-failure; exit 3
      no_log: true
      ignore_errors: true
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose configuration logs to run.log (relative: beside the configuration file)."""
    return local_project(tmp_path, "[defaults]\nlog_path = run.log\n", site=PLAYBOOK)


def messages(log: str) -> list[str]:
    """The log's lines with their stamps taken off (a multi-line record's further lines are kept as they are)."""
    return [RECORD.sub("", line) for line in log.splitlines()]


def shown(output: str) -> list[str]:
    """The lines a terminal shows, colour codes taken off, blank lines left out (the log has none)."""
    return [line for line in COLOUR.sub("", output).splitlines() if line.strip()]


def test_the_log_holds_what_the_terminal_shows_without_colour(project: Path) -> None:
    done = run(project, "provisioning-playbook", "-i", "hosts", "site.yml", "-v")
    assert done.returncode == 0, done.stderr
    assert "\x1b[" in done.stdout
    log = (project / "run.log").read_text()
    assert "\x1b" not in log
    assert RECORD.match(log)
    assert messages(log) == shown(done.stdout)


def test_no_log_results_are_censored_in_the_log_as_on_the_terminal(project: Path) -> None:
    done = run(project, "provisioning-playbook", "-i", "hosts", "site.yml", "-v")
    log = (project / "run.log").read_text()
    assert "visible-output" in log
    assert "topsecret" not in done.stdout + done.stderr
    assert "topsecret" not in log
    assert log.count("the output has been hidden due to the fact that 'no_log: true' was specified") == 2


def test_the_log_is_created_0600_and_appended_to_run_after_run(project: Path) -> None:
    previous = os.umask(0o022)
    try:
        first = run(project, "provisioning-playbook", "-i", "hosts", "site.yml")
    finally:
        os.umask(previous)
    assert (project / "run.log").stat().st_mode & 0o777 == 0o600
    (project / "run.log").chmod(0o640)
    second = run(project, "provisioning", "-i", "hosts", "localhost", "-m", "command", "-a", "echo adhoc-output")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert (project / "run.log").stat().st_mode & 0o777 == 0o640
    log = (project / "run.log").read_text()
    assert messages(log) == shown(first.stdout) + shown(second.stdout)
    assert "localhost | CHANGED | rc=0 >>\nadhoc-output\n" in log
    pids = {match.group(1) for match in map(RECORD.match, log.splitlines()) if match}
    assert len(pids) == 2


def test_an_infra_run_is_logged_too(project: Path) -> None:
    """The example infra in check mode: its server play runs on localhost, creating nothing."""
    repository = Path(__file__).resolve().parents[2]
    infra = repository / "infra" / "local.yml"
    # Its listing names each server's taskservs in requirement order, which the project's roles decide.
    done = run(project, "provisioning-infra", "server", "create", "--infra", str(infra), "--check",
               PROVISIONING_ROLES_PATH=str(repository / "roles"))
    assert done.returncode == 0, done.stderr
    log = (project / "run.log").read_text()
    assert messages(log)[0].startswith("DRY RUN ***")  # check_mode_markers, on by default
    assert messages(log)[1].startswith("PLAY [Servers of infra local] [CHECK MODE] ***")
    assert messages(log) == shown(done.stdout)


def test_the_error_that_ends_a_command_is_in_the_log(project: Path) -> None:
    (project / "broken.yml").write_text("- hosts: localhost\n  tasks:\n    - debug: msg=hi\n      bogus: 1\n")
    done = run(project, "provisioning-playbook", "-i", "hosts", "broken.yml")
    assert done.returncode == 4
    [record] = [line for line in (project / "run.log").read_text().splitlines() if " ERROR| " in line]
    assert record.endswith(done.stderr.splitlines()[0])
    assert f"{project / 'broken.yml'}:4:7" in record


def test_a_log_path_that_cannot_be_written_warns_and_the_run_goes_on(project: Path) -> None:
    done = run(project, "provisioning-playbook", "-i", "hosts", "site.yml",
               PROVISIONING_LOG_PATH=str(project / "no-dir" / "x.log"))
    assert done.returncode == 0
    assert "PLAY RECAP" in done.stdout
    assert done.stderr.startswith(f"[WARNING]: cannot write the log file {project / 'no-dir' / 'x.log'} (log_path, "
                                  "set in env: PROVISIONING_LOG_PATH): No such file or directory")
    assert "Traceback" not in done.stderr
    assert not (project / "run.log").exists()
