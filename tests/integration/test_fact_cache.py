"""The jsonfile fact cache on real runs on localhost (local connection, no test host needed): gathered facts
and cacheable set_fact values reach the next run, ``gathering = smart`` then skips gathering, ``--flush-cache``
empties the cache, and ansible-core reads the files ours writes."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.integration.local_run import local_project
from tests.integration.local_run import run_command as run

ANSIBLE_PLAYBOOK = Path("/opt/ansible-core/bin/ansible-playbook")
CONFIG = "[defaults]\nfact_caching = jsonfile\nfact_caching_connection = cache\ngathering = smart\n"
FIRST = """\
- hosts: localhost
  tasks:
    - set_fact: {kept: from-the-first-run, cacheable: true}
    - set_fact: {dropped: only-this-run}
"""
SECOND = """\
- hosts: localhost
  tasks:
    - debug: {msg: "{{ kept }} {{ ansible_os_family }} {{ dropped | default('gone') }}"}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = local_project(tmp_path, CONFIG, first=FIRST, second=SECOND)
    first = run(project, "provisioning-playbook", "-i", "hosts", "first.yml")
    assert first.returncode == 0, first.stdout + first.stderr
    return project


def test_facts_and_cacheable_values_reach_the_next_run(project: Path) -> None:
    payload = json.loads(json.loads((project / "cache" / "s1_localhost").read_text())["__payload__"])
    # A cacheable value keeps where it was set, as ansible-core 2.19's payload has it (a tagged string).
    assert payload["kept"]["value"] == "from-the-first-run" and payload["kept"]["__ansible_type"] == "_AnsibleTaggedStr"
    assert payload["_ansible_facts_gathered"] is True
    assert "ansible_os_family" in payload and "dropped" not in payload
    second = run(project, "provisioning-playbook", "-i", "hosts", "second.yml")
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Gathering Facts" not in second.stdout  # smart: the cached facts are the host's
    assert f"from-the-first-run {payload['ansible_os_family']} gone" in second.stdout


def test_flush_cache_gathers_again_and_forgets_cached_values(project: Path) -> None:
    flushed = run(project, "provisioning-playbook", "-i", "hosts", "second.yml", "--flush-cache")
    assert flushed.returncode != 0
    assert "Gathering Facts" in flushed.stdout and "'kept' is undefined" in flushed.stdout


def test_jsonfile_without_a_directory_is_an_option_error(tmp_path: Path) -> None:
    project = local_project(tmp_path, "[defaults]\nfact_caching = jsonfile\n", second=SECOND)
    result = run(project, "provisioning-playbook", "-i", "hosts", "second.yml")
    assert result.returncode == 5 and "fact_caching_connection" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(not ANSIBLE_PLAYBOOK.exists(), reason="ansible-core is not installed at /opt/ansible-core")
def test_ansible_core_reads_our_cache(project: Path) -> None:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("ANSIBLE_")}
    environment.update(ANSIBLE_CACHE_PLUGIN="jsonfile", ANSIBLE_CACHE_PLUGIN_CONNECTION=str(project / "cache"),
                       ANSIBLE_GATHERING="smart", ANSIBLE_CONFIG=str(project / "none.cfg"))
    result = subprocess.run([str(ANSIBLE_PLAYBOOK), "-i", "hosts", "second.yml"], cwd=project, capture_output=True,
                            text=True, env=environment, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "from-the-first-run" in result.stdout and "Gathering Facts" not in result.stdout
