"""``provisioning-infra rollback RUN``: the servers a failed run created, deleted the last created first, on
local servers (127.0.0.86 up, state in a directory of their own). A server that existed before the run is left
alone; ``--check`` deletes nothing; a run that did not fail is refused."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from runner.providers import ensure_absent, make_provider
from runner.providers.local import LocalProvider
from runner.testenv import unavailable_reason
from tests.support.scripts import script
from tests.support.taskserv_infra import environment

UNAVAILABLE = unavailable_reason()
pytestmark = [pytest.mark.hosts,
              pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no local test hosts: {UNAVAILABLE}")]

# One server at a time: "newest first" is then the infra's order reversed (created side by side, the order in
# which they came up would decide, which a test cannot know)
INFRA = """\
name: rollback
providers:
  local: {{state_dir: "{state_dir}", base_address: 86, poll_interval: 0.1, parallel: 1}}
servers:
  - {{hostname: rb-0, provider: local}}
  - {{hostname: rb-1, provider: local}}
  - {{hostname: rb-2, provider: local}}
"""
BROKEN = """\
- hosts: rb-2
  gather_facts: false
  tasks:
    - name: breaks
      fail: {msg: broken on purpose}
"""


@dataclass
class Project:
    directory: Path
    state_dir: Path

    @property
    def provider(self) -> LocalProvider:
        return make_provider("local", {"state_dir": str(self.state_dir)}, env_name="rollback")  # type: ignore[return-value]

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**environment(), "PROVISIONING_RUNS_DATABASE": str(self.directory / "runs.db")}
        return subprocess.run([script(args[0]), *args[1:]], capture_output=True, text=True, cwd=self.directory,
                              env=env, timeout=600, stdin=subprocess.DEVNULL)

    def running(self) -> list[str]:
        return sorted(state.name for state in self.provider.servers())


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    directory = tmp_path_factory.mktemp("infra-rollback")
    (directory / "infra").mkdir()
    made = Project(directory, directory / "state")
    (directory / "infra" / "rollback.yml").write_text(INFRA.format(state_dir=made.state_dir))
    (directory / "broken.yml").write_text(BROKEN)
    yield made
    for state in made.provider.servers():
        ensure_absent(made.provider, state.name)


def _last_run(project: Project) -> str:
    listed = project.run("provisioning-runs", "--database", str(project.directory / "runs.db"), "list", "--out",
                         "json")
    return str(json.loads(listed.stdout)[0]["id"])


def test_rollback_deletes_what_the_failed_run_created_newest_first(project: Project) -> None:
    before = project.run("provisioning-infra", "server", "create", "rb-0", "--infra", "rollback")
    assert before.returncode == 0, before.stdout + before.stderr
    ok_run = _last_run(project)

    failed = project.run("provisioning-playbook", "--infra", "infra/rollback.yml", "broken.yml")
    assert failed.returncode == 2, failed.stdout + failed.stderr
    failed_run = _last_run(project)
    assert project.running() == ["rb-0", "rb-1", "rb-2"]

    checked = project.run("provisioning-infra", "rollback", failed_run, "--infra", "rollback", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines() == ["would delete local server 'rb-2'", "would delete local server 'rb-1'"]
    assert project.running() == ["rb-0", "rb-1", "rb-2"]

    unasked = project.run("provisioning-infra", "rollback", failed_run, "--infra", "rollback")
    assert unasked.returncode == 5 and "pass --yes" in unasked.stderr

    done = project.run("provisioning-infra", "rollback", failed_run, "--infra", "rollback", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["deleted local server 'rb-2'", "deleted local server 'rb-1'"]
    assert project.running() == ["rb-0"]  # it existed before the failed run: left alone

    again = project.run("provisioning-infra", "rollback", failed_run, "--infra", "rollback", "--yes")
    assert again.returncode == 0
    assert again.stdout.splitlines() == ["local server 'rb-2' does not exist", "local server 'rb-1' does not exist"]

    refused = project.run("provisioning-infra", "rollback", ok_run, "--infra", "rollback", "--yes")
    assert refused.returncode == 5 and "ended ok" in refused.stderr
    missing = project.run("provisioning-infra", "rollback", "4242", "--infra", "rollback", "--yes")
    assert missing.returncode == 5 and "run 4242 is not recorded" in missing.stderr
