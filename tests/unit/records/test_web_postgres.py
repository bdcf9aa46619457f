"""``provisioning-runs serve`` over a real PostgreSQL (started by the tests): every API path answers, with the
same data as over SQLite."""

from __future__ import annotations

from pathlib import Path

from runner.records.web.openapi import PATHS
from tests.support.records import run_in_process, write
from tests.support.records_web import fetch, serving

PLAYBOOK = """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: say hello
      debug:
        msg: hello
    - name: fail
      command: "false"
"""


def test_the_api_over_postgres(tmp_path: Path, postgres_url: str) -> None:
    assert run_in_process(write(tmp_path, "site.yml", PLAYBOOK), postgres_url).exit_code == 2
    with serving(postgres_url) as base:
        listed = fetch(f"{base}/api/runs?status=failed&since=1h").json()
        assert listed["total"] == 1 and listed["items"][0]["duration"] > 0
        [failed] = fetch(f"{base}/api/runs/1/results?status=failed").json()["items"]
        assert failed["msg"] == "The command exited with a non-zero return code."
        hosts = fetch(f"{base}/api/hosts").json()["items"]
        assert hosts[0]["host"] == "localhost" and hosts[0]["last_run_at"].endswith("Z")
        for path in [*PATHS, "/", "/runs/1", "/runs/1/live", f"/results/{failed['id']}", "/hosts",
                     "/hosts/localhost"]:
            concrete = path.replace("{run}", "1").replace("{result}", str(failed["id"])).replace("{host}",
                                                                                                 "localhost")
            assert fetch(base + concrete).status == 200, path
