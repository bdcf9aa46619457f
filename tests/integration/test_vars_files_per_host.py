"""vars_files named with a host's variables, read per host when its tasks run (local connection, two inventory
names for localhost, no test host needed): the first candidate found wins, a missing file adds nothing, and a
name still undefined once the host's facts are gathered fails its tasks with Ansible's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.local_run import local_project
from tests.integration.local_run import run_command as run

LOCAL = "ansible_connection=local ansible_python_interpreter=/usr/bin/python3"
INVENTORY = f"web1 {LOCAL} flavour=bar\nweb2 {LOCAL} flavour=baz\n"
SITE = """\
- hosts: all
  gather_facts: false
  vars_files:
    - vars/common.yml
    - ["vars/{{ flavour }}.yml", vars/defaults.yml]
    - "vars/{{ flavour }}.yml"
  tasks:
    - debug: {msg: "{{ inventory_hostname }} {{ common }} {{ picked }}"}
"""
LOOKUP = """\
- hosts: all
  gather_facts: false
  vars:
    names: ["vars/{{ flavour }}.yml", vars/defaults.yml]
  vars_files:
    - "{{ lookup('first_found', names) }}"
  tasks:
    - debug: {msg: "{{ inventory_hostname }} {{ picked }}"}
"""
UNDEFINED = """\
- hosts: web1
  gather_facts: true
  vars_files: ["vars/{{ nowhere }}.yml"]
  tasks:
    - debug: {msg: unreachable}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = local_project(tmp_path, "[defaults]\n", site=SITE, lookup=LOOKUP, undefined=UNDEFINED)
    (project / "hosts").write_text(INVENTORY)
    (project / "vars").mkdir()
    (project / "vars" / "common.yml").write_text("common: shared\n")
    (project / "vars" / "bar.yml").write_text("picked: from-bar\n")
    (project / "vars" / "defaults.yml").write_text("picked: from-defaults\n")
    return project


def test_each_host_reads_the_files_its_variables_name(project: Path) -> None:
    result = run(project, "provisioning-playbook", "-i", "hosts", "site.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"msg": "web1 shared from-bar"' in result.stdout
    assert '"msg": "web2 shared from-defaults"' in result.stdout


def test_a_first_found_lookup_names_a_file_beside_the_playbook(project: Path) -> None:
    result = run(project, "provisioning-playbook", "-i", "hosts", "lookup.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"msg": "web1 from-bar"' in result.stdout
    assert '"msg": "web2 from-defaults"' in result.stdout


def test_a_name_undefined_after_gathering_fails_the_task(project: Path) -> None:
    result = run(project, "provisioning-playbook", "-i", "hosts", "undefined.yml")
    assert result.returncode == 2, result.stdout + result.stderr
    assert ("an undefined variable was found when attempting to template the vars_files item "
            "'vars/{{ nowhere }}.yml'") in result.stdout
    assert "Traceback" not in result.stdout + result.stderr
