"""The daily commands of ``provisioning-infra`` on local servers, through the installed commands: servers created
at the same time (one line each, each its own address), ``--out json`` of every listing valid against its schema
in schemas/, ``server ssh``, ``taskserv status`` and ``catalog``, ``--infra NAME``, and deletion leaving nothing.

The tests run in order on one infra of three servers (d-web1, d-web2, d-db1 from 127.0.0.82 up, state in a
directory of their own), over the test taskserv roles of tests/data/taskservs.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from runner.models.schemas import SCHEMA_DIR
from runner.providers import ensure_absent, make_provider
from runner.providers.local import LocalProvider
from runner.testenv import unavailable_reason
from runner.testenv.machine import mount_points_under
from tests.support.scripts import script
from tests.support.taskserv_infra import environment

UNAVAILABLE = unavailable_reason()
pytestmark = [pytest.mark.hosts,
              pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no local test hosts: {UNAVAILABLE}")]

SERVERS = ("d-web1", "d-web2", "d-db1")
INFRA = """\
name: daily
providers:
  local: {{state_dir: "{state_dir}", base_address: 82, poll_interval: 0.1, parallel: 3}}
servers:
  - {{hostname: d-web1, provider: local, labels: [web], taskservs: [webdir]}}
  - {{hostname: d-web2, provider: local, labels: [web], taskservs: [webdir]}}
  - {{hostname: d-db1, provider: local, taskservs: [files]}}
clusters:
  - name: farm
    servers: [d-web1, d-db1]
    taskservs: [mirror]
    vars: {{mirror_peers: [d-web1, d-db1]}}
"""


@dataclass
class Daily:
    directory: Path
    state_dir: Path

    @property
    def provider(self) -> LocalProvider:
        return make_provider("local", {"state_dir": str(self.state_dir)}, env_name="daily")  # type: ignore[return-value]

    def run(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """``args[0]`` (an installed command) run in the infra's project directory."""
        return subprocess.run([script(args[0]), *args[1:]], capture_output=True, text=True, cwd=self.directory,
                              env=environment(), timeout=timeout)

    def document(self, schema: str, *args: str) -> Any:
        """``provisioning-infra ARGS --out json``, checked against ``schemas/<schema>``."""
        done = self.run("provisioning-infra", *args, "--out", "json")
        assert done.returncode in (0, 2), done.stdout + done.stderr
        data = json.loads(done.stdout)
        jsonschema.validate(data, json.loads((SCHEMA_DIR / schema).read_text()))
        return data


@pytest.fixture(scope="module")
def daily(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daily]:
    directory = tmp_path_factory.mktemp("infra-daily")
    (directory / "infra").mkdir()
    state_dir = directory / "state"
    (directory / "infra" / "daily.yml").write_text(INFRA.format(state_dir=state_dir))
    built = Daily(directory, state_dir)
    yield built
    for state in built.provider.servers():  # after a failed test: nothing is left running
        ensure_absent(built.provider, state.name)


def test_servers_are_created_together_one_line_each_on_addresses_of_their_own(daily: Daily) -> None:
    done = daily.run("provisioning-infra", "server", "create", "--infra", "daily")  # infra/daily.yml
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("changed: [d-")]
    assert sorted(lines) == sorted(f"changed: [{name}]" for name in SERVERS)
    listing = daily.document("infra-server-list.schema.json", "server", "list", "--infra", "daily")
    assert [(s["name"], s["state"]) for s in listing["servers"]] == [(name, "running") for name in SERVERS]
    assert sorted(s["address"] for s in listing["servers"]) == ["127.0.0.82", "127.0.0.83", "127.0.0.84"]


def test_the_site_installs_every_server_in_one_taskserv_play(daily: Daily) -> None:
    done = daily.run("provisioning-playbook", "--infra", "infra/daily.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PLAY [Taskservs on d-web1, d-web2, d-db1]") == 1


def test_server_ssh_runs_a_command_on_the_server(daily: Daily) -> None:
    done = daily.run("provisioning-infra", "server", "ssh", "d-web2", "--infra", "daily", "--", "hostname",
                     timeout=120)
    assert (done.returncode, done.stdout) == (0, "d-web2\n"), done.stderr
    done = daily.run("provisioning-infra", "server", "ssh", "d-db1", "--infra", "daily", "--", "false",
                     timeout=120)
    assert done.returncode == 1  # the remote command's status


def test_server_show_in_every_format(daily: Daily) -> None:
    shown = daily.document("infra-server.schema.json", "server", "show", "d-db1", "--infra", "daily")
    assert (shown["state"], shown["clusters"]) == ("running", ["farm"])
    assert [step["name"] for step in shown["install_order"]] == ["os", "files", "webdir", "mirror"]
    as_yaml = daily.run("provisioning-infra", "server", "show", "d-db1", "--infra", "daily", "--out", "yaml")
    assert yaml.safe_load(as_yaml.stdout) == shown
    table = daily.run("provisioning-infra", "server", "show", "d-db1", "--infra", "daily").stdout
    assert "STATE          running" in table


def test_clusters_taskservs_and_the_catalog_as_json(daily: Daily) -> None:
    clusters = daily.document("infra-cluster-list.schema.json", "cluster", "list", "--infra", "daily")
    assert clusters["clusters"] == [{"name": "farm", "members": ["d-web1", "d-db1"], "taskservs": ["mirror"],
                                     "vars": {"mirror_peers": ["d-web1", "d-db1"]}}]
    assert daily.document("infra-cluster.schema.json", "cluster", "show", "farm", "--infra",
                          "daily") == clusters["clusters"][0]
    listed = daily.document("infra-taskserv-list.schema.json", "taskserv", "list", "--infra", "daily")
    assert listed["servers"][1] == {"server": "d-web2", "taskservs": ["os", "files", "webdir"]}
    catalog = daily.document("infra-taskserv-catalog.schema.json", "taskserv", "catalog", "--infra", "daily")
    webdir = next(entry for entry in catalog["taskservs"] if entry["name"] == "webdir")
    assert (webdir["version"], webdir["requires"], webdir["health_check"]) == (
        "0.3.0", ["files>=1.0"], "port {{ webdir_port }}")


def test_taskserv_status_runs_each_health_check_read_only(daily: Daily) -> None:
    status = daily.document("infra-taskserv-status.schema.json", "taskserv", "status", "--infra", "daily")
    assert {(c["server"], c["taskserv"]): c["status"] for c in status["checks"]} == {
        **{(name, taskserv): "healthy" for name in SERVERS for taskserv in ("os", "files", "webdir")},
        ("d-web1", "mirror"): "healthy", ("d-db1", "mirror"): "healthy"}
    table = daily.run("provisioning-infra", "taskserv", "status", "webdir", "--server", "d-web1", "--infra", "daily")
    assert table.returncode == 0, table.stderr
    assert table.stdout.splitlines()[1].split()[:3] == ["d-web1", "webdir", "healthy"]


def test_servers_are_deleted_together_leaving_nothing(daily: Daily) -> None:
    done = daily.run("provisioning-infra", "server", "delete", "--yes", "--infra", "daily")
    assert done.returncode == 0, done.stdout + done.stderr
    assert daily.provider.servers() == [] and mount_points_under(daily.state_dir) == []
    status = daily.document("infra-taskserv-status.schema.json", "taskserv", "status", "os", "--infra", "daily")
    assert {c["status"] for c in status["checks"]} == {"server down"}
    done = daily.run("provisioning-infra", "server", "ssh", "d-web1", "--infra", "daily", "--", "true")
    assert done.returncode == 4 and "server d-web1 does not exist: nothing to log in to" in done.stderr
    assert "Traceback" not in done.stderr
