"""An infra on the local provider, end to end, through the installed commands: ``--check`` on a fresh state
changes nothing and says what it would create and install; the playbook creates the servers, installs their
taskservs in requirement order with health checks and sets up the cluster; a second run changes nothing;
``provisioning-infra`` removes and reinstalls a taskserv in requirement order, lists the servers, and deletes
them leaving no process, mount or state behind.

The tests run in order on one infra (servers it-web1 and it-db1 from 127.0.0.150 up, state in a directory of
their own), built from tests/data/taskservs (see tests/support/taskserv_infra.py).
"""

from __future__ import annotations

import json
import subprocess
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from runner.providers import ensure_absent, make_provider
from runner.providers.local import LocalProvider
from runner.testenv import unavailable_reason
from runner.testenv.machine import mount_points_under, start_time
from tests.integration.test_provider_local import mount_namespace, processes_in
from tests.support.scripts import script
from tests.support.taskserv_infra import environment, write_infra

UNAVAILABLE = unavailable_reason()
pytestmark = [pytest.mark.hosts,
              pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no local test hosts: {UNAVAILABLE}")]

SERVERS = ("it-web1", "it-db1")
LISTING = "servers and their taskservs in requirement order"


@dataclass
class Site:
    directory: Path
    infra: Path
    playbook: Path
    state_dir: Path

    @property
    def provider(self) -> LocalProvider:
        return make_provider("local", {"state_dir": str(self.state_dir)}, env_name="itest")  # type: ignore[return-value]

    def running(self) -> dict[str, int]:
        """Running servers and the pid of each one's init."""
        return {state.name: state.details["pid"] for state in self.provider.servers() if state.running}

    def host_file(self, server: str, path: str) -> str:
        return Path(f"/proc/{self.running()[server]}/root{path}").read_text()


@dataclass
class Run:
    code: int
    output: str
    report: dict[str, Any]

    def results(self, task: str) -> dict[str, dict[str, Any]]:
        merged: dict[str, dict[str, Any]] = {}
        for play in self.report["plays"]:
            for entry in play["tasks"]:
                if entry["task"]["name"] == task:
                    merged.update(entry["hosts"])
        assert merged, f"no task {task!r} in the report:\n{self.output}"
        return merged

    def passed(self, task: str) -> set[str]:
        """Hosts on which some run of ``task`` succeeded (neither failed nor skipped)."""
        return {host for play in self.report["plays"] for entry in play["tasks"] if entry["task"]["name"] == task
                for host, result in entry["hosts"].items() if not result.get("failed") and not result.get("skipped")}

    def tasks(self) -> list[str]:
        return [entry["task"]["name"] for play in self.report["plays"] for entry in play["tasks"]]

    def changed(self) -> dict[str, int]:
        return {host: stats["changed"] for host, stats in self.report["stats"].items()}


def command(site: Site, *args: str) -> Run:
    report = site.directory / "report.json"
    report.unlink(missing_ok=True)
    done = subprocess.run([script(args[0]), *args[1:], "--report", f"json:{report}"], capture_output=True, text=True,
                          cwd=site.directory, env=environment(), timeout=600)
    data = json.loads(report.read_text()) if report.exists() else {}
    return Run(done.returncode, done.stdout + done.stderr, data)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    directory = tmp_path_factory.mktemp("infra-site")
    state_dir = directory / "state"
    playbook = directory / "site.yml"
    playbook.write_text("- import_infra: infra.yml\n")
    built = Site(directory, write_infra(directory, state_dir), playbook, state_dir)
    yield built
    for name in built.running():  # after a failed test: nothing is left running
        ensure_absent(built.provider, name)


def test_check_on_a_fresh_state_says_what_it_would_do_and_changes_nothing(site: Site) -> None:
    run = command(site, "provisioning-playbook", str(site.playbook), "--check")
    assert run.code == 0, run.output
    assert run.results(LISTING)["localhost"]["msg"] == [
        "would create local server 'it-web1'; taskservs: os, files, webdir",
        "would create local server 'it-db1'; taskservs: os, files",
        "cluster farm (it-web1, it-db1): webdir (on it-db1), mirror",
    ]
    assert [run.results("local server")[name]["changed"] for name in SERVERS] == [True, True]
    assert set(run.report["stats"]) == {"localhost", *SERVERS}
    assert site.provider.servers() == [] and mount_points_under(site.state_dir) == []


def test_the_site_creates_the_servers_and_installs_taskservs_in_requirement_order(site: Site) -> None:
    run = command(site, "provisioning-playbook", str(site.playbook))
    assert run.code == 0, run.output
    assert set(site.running()) == set(SERVERS)
    assert site.host_file("it-web1", "/var/lib/taskservs/order").splitlines() == [
        "os", "files", "webdir", "mirror of it-web1,it-db1"]
    # it-db1's own play installed files; the cluster's play webdir (which mirror requires), then mirror
    assert site.host_file("it-db1", "/var/lib/taskservs/order").splitlines() == [
        "os", "files", "webdir", "mirror of it-web1,it-db1"]
    assert site.host_file("it-db1", "/srv/www/index.html") == "hello db from it-db1 x3\n"  # profile and vars
    for check in ("os : health check (command)", "webdir : health check (port)", "mirror : health check (url)"):
        assert run.passed(check) == set(SERVERS), check
    tasks = run.tasks()
    assert tasks.index("webdir : health check (port)") < tasks.index("mirror : Record the install order")


def test_a_check_run_on_the_created_servers_predicts_no_change_and_finds_their_addresses(site: Site) -> None:
    run = command(site, "provisioning-playbook", str(site.playbook), "--check")
    assert run.code == 0, run.output
    assert run.changed() == {"localhost": 0, "it-web1": 0, "it-db1": 0}
    for name in SERVERS:
        address = run.results("local server")[name]["server"]["address"]
        served = urllib.request.urlopen(f"http://{address}:8088/index.html", timeout=10).read().decode()
        assert served.endswith(f"from {name} x{3 if name == 'it-db1' else 1}\n")


def test_a_second_run_changes_nothing(site: Site) -> None:
    run = command(site, "provisioning-playbook", str(site.playbook))
    assert run.code == 0, run.output
    assert run.changed() == {"localhost": 0, "it-web1": 0, "it-db1": 0}


def test_a_taskserv_goes_after_what_requires_it_and_comes_back_with_what_it_requires(site: Site) -> None:
    run = command(site, "provisioning-infra", "taskserv", "delete", "files", "--server", "it-web1", "--yes",
                  "--infra", str(site.infra))
    assert run.code == 0, run.output
    removed = [task for task in run.tasks() if ":" in task]
    assert removed == ["mirror : Forget it in the install order", "webdir : Stop serving",
                       "webdir : Forget it in the install order", "files : No page",
                       "files : Forget it in the install order"]
    assert site.host_file("it-web1", "/var/lib/taskservs/order").splitlines() == ["os"]
    run = command(site, "provisioning-infra", "taskserv", "create", "mirror", "--server", "it-web1",
                  "--infra", str(site.infra))
    assert run.code == 0, run.output
    assert site.host_file("it-web1", "/var/lib/taskservs/order").splitlines() == [
        "os", "files", "webdir", "mirror of it-web1,it-db1"]


def test_server_list_shows_the_running_servers(site: Site) -> None:
    done = subprocess.run([script("provisioning-infra"), "server", "list", "--infra", str(site.infra)],
                          capture_output=True, text=True, env=environment(), timeout=60)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    assert [(row[0], row[1], row[2]) for row in rows] == [(name, "local", "running") for name in SERVERS]


def test_server_delete_leaves_no_process_mount_or_state_behind(site: Site) -> None:
    inits = site.running()
    namespaces = [mount_namespace(pid) for pid in inits.values()]
    run = command(site, "provisioning-infra", "server", "delete", "--yes", "--infra", str(site.infra))
    assert run.code == 0, run.output
    assert run.tasks() == ["the servers", "local server"]  # one server task, each server its own host
    assert set(run.results("local server")) == set(SERVERS)
    assert [start_time(pid) for pid in inits.values()] == [None, None]
    assert [processes_in(namespace) for namespace in namespaces] == [[], []]
    assert mount_points_under(site.state_dir) == []
    assert site.provider.servers() == []
    assert not any((site.state_dir / "itest" / name).exists() for name in SERVERS)
