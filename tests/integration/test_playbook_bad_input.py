"""Bad playbooks (tests/data/playbooks/bad/): each is one clear error naming file:line:col, a non-zero exit, no
traceback, and no host touched. Each playbook has a marker task (a file created on every host): before the
mistake when the mistake is found while compiling (nothing may run), after it when it is found while running
(the failing task stops the host)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import HOSTS, host_file
from tests.support.playbook_run import PLAYBOOKS, run_playbook

pytestmark = pytest.mark.hosts
BAD = PLAYBOOKS / "bad"
ROLES = PLAYBOOKS / "roles"

# file, exit code, where (file:line:col), what the message must say
CASES = [
    ("malformed.yml", 4, f"{BAD}/malformed.yml:12:11", "YAML parsing failed: Did not find expected ',' or ']'"),
    ("unknown_keyword.yml", 4, f"{BAD}/unknown_keyword.yml:9:7",
     "'become_usr' is not a valid task keyword (did you mean 'become_user'?)"),
    ("bad_indentation.yml", 4, f"{BAD}/bad_indentation.yml:12:8", "YAML parsing failed"),
    # as in Ansible, the task fails when it runs (the tasks before it run; here there are none)
    ("unknown_filter.yml", 2, f"{BAD}/unknown_filter.yml:5:7", "unknown filter 'no_such_filter'"),
    ("missing_role.yml", 4, f"{BAD}/missing_role.yml:10:7", "The role 'no_such_role' was not found in: "),
    ("role_cycle.yml", 4, f"{ROLES}/cycle_b/meta/main.yml:1:16",
     "role dependency cycle: cycle_a -> cycle_b -> cycle_a"),
    ("bad_module_argument.yml", 4, f"{BAD}/bad_module_argument.yml:10:7", "file: unsupported parameter: colour"),
    ("undefined_variable.yml", 2, f"{BAD}/undefined_variable.yml:5:7",
     "'no_such_variable' is undefined"),
    ("non_boolean_when.yml", 2, f"{BAD}/non_boolean_when.yml:7:7",
     "Conditional result was 'yes please' of type 'str', which evaluates to True in Python but is not a boolean"),
]


@pytest.mark.parametrize(("name", "exit_code", "where", "message"), CASES, ids=[case[0] for case in CASES])
def test_bad_input_is_one_clear_error_and_touches_no_host(inventory_path: Path, testenv: TestEnv, name: str,
                                                          exit_code: int, where: str, message: str) -> None:
    marker = f"/tmp/bad-input-{uuid.uuid4().hex[:8]}"
    run = run_playbook(inventory_path, BAD / name, "-e", f"marker={marker}")
    assert run.exit_code == exit_code, run.output
    assert where in run.output and message in run.output, run.output
    assert "Traceback" not in run.output and "internal error" not in run.output
    for host in HOSTS:
        assert not host_file(testenv, host, marker).exists()
    if exit_code == 4:  # found while compiling: one error, with the offending line, and nothing ran
        assert run.output.startswith(f"ERROR: {where}: ") and run.report is None
    else:  # found while running: the failing task is named, and every host stopped there
        task = run.task_headers()[0]
        assert f"task '{task}' at {where}" in run.output
        assert all(run.stats[host]["failures"] == 1 for host in HOSTS)
