"""``provisioning-infra rollback RUN`` against moto's EC2 server (started here on a loopback port): a playbook
creates two aws servers with the ``server`` module and fails; the rollback terminates both, the last created
first, and leaves an instance the run found already there."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from runner.providers import ensure_present, make_provider
from runner.providers.aws import AwsProvider
from tests.integration.test_provider_aws import IMAGE, REGION, aws_server, instances_named
from tests.support.records import record_env
from tests.support.scripts import script

PLAYBOOK = """\
- hosts: localhost
  gather_facts: false
  tasks:
    - name: make them
      server:
        name: "{{{{ item }}}}"
        provider: aws
        region: {region}
        image: {image}
        provider_config: {{endpoint_url: "{endpoint}", wait_for_ssh: false}}
      loop: [rb-kept, rb-first, rb-second]
    - name: breaks
      fail: {{msg: broken on purpose}}
"""
INFRA = """\
name: rollback-aws
providers:
  aws: {{endpoint_url: "{endpoint}", region: {region}, wait_for_ssh: false, poll_interval: 0}}
servers:
  - {{hostname: rb-kept, provider: aws, image: {image}}}
"""


def _run(directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **record_env(directory, str(directory / "runs.db"))}
    return subprocess.run([script(args[0]), *args[1:]], capture_output=True, text=True, cwd=directory, env=env,
                          timeout=300, stdin=subprocess.DEVNULL)


def _states(provider: AwsProvider, name: str) -> list[str]:
    return [instance["State"]["Name"] for instance in instances_named(provider, name)]


def test_rollback_terminates_the_instances_the_failed_run_created(moto_endpoint: str, tmp_path: Path) -> None:
    provider = make_provider("aws", {"endpoint_url": moto_endpoint, "region": REGION, "wait_for_ssh": False,
                                     "poll_interval": 0})
    assert isinstance(provider, AwsProvider)
    ensure_present(provider, aws_server("rb-kept"))  # there before the run
    (tmp_path / "site.yml").write_text(PLAYBOOK.format(region=REGION, image=IMAGE, endpoint=moto_endpoint))
    (tmp_path / "infra.yml").write_text(INFRA.format(region=REGION, image=IMAGE, endpoint=moto_endpoint))
    failed = _run(tmp_path, "provisioning-playbook", "site.yml", "-i", "localhost,", "-c", "local")
    assert failed.returncode == 2, failed.stdout + failed.stderr
    listed = _run(tmp_path, "provisioning-runs", "list", "--out", "json")
    run_id = str(json.loads(listed.stdout)[0]["id"])

    checked = _run(tmp_path, "provisioning-infra", "rollback", run_id, "--infra", "infra.yml", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines() == ["would delete aws server 'rb-second'", "would delete aws server 'rb-first'"]
    assert _states(provider, "rb-first") == ["running"]

    done = _run(tmp_path, "provisioning-infra", "rollback", run_id, "--infra", "infra.yml", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["deleted aws server 'rb-second'", "deleted aws server 'rb-first'"]
    assert _states(provider, "rb-first") == ["terminated"] and _states(provider, "rb-second") == ["terminated"]
    assert _states(provider, "rb-kept") == ["running"]
