"""A collection's roles and playbooks, built into a tarball with ``provisioning-galaxy collection build``,
installed from it, then run by name, by ours and by ansible-core alike: the same tasks, under the same names,
with the same values (on this machine over the local connection: no test hosts)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.ansible_core import ansible_binary
from tests.support.galaxy import Galaxy

OURS = Path(sys.executable).parent / "provisioning-playbook"
SITE = """\
- hosts: localhost
  gather_facts: false
  roles: [web]
  tasks:
    - name: from the play
      debug: msg="{{ web_said }}"
"""


def make_collection(parent: Path) -> Path:
    """demo.tools 1.0.0: role ``web`` (depending on its sibling ``base`` by its short name, with argument specs)
    and playbook ``site``, whose short role name is its collection's."""
    root = parent / "demo_tools"
    files = {
        "galaxy.yml": "namespace: demo\nname: tools\nversion: 1.0.0\nreadme: README.md\nauthors: [ops]\n",
        "README.md": "# demo.tools\n",
        "roles/base/tasks/main.yml": "- name: base\n  debug: msg=\"{{ role_name }} {{ ansible_role_name }}\"\n",
        "roles/web/meta/main.yml": "dependencies: [base]\n",
        "roles/web/meta/argument_specs.yml": "argument_specs:\n  main:\n    options:\n"
                                             "      greeting: {type: str, default: hello}\n",
        "roles/web/defaults/main.yml": "greeting: hello\n",
        "roles/web/tasks/main.yml": "- name: web\n  set_fact: web_said=\"{{ greeting }} from {{ "
                                    "ansible_collection_name }}\"\n",
        "playbooks/site.yml": SITE,
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def run(command: Path, project: Path, *args: str) -> tuple[list[str], str]:
    """The task titles and debug messages a run printed, and its whole output."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("ANSIBLE_", "PROVISIONING_"))}
    environment.update(ANSIBLE_NOCOLOR="1", ANSIBLE_COLLECTIONS_PATH=str(project / "collections"),
                       PROVISIONING_COLLECTIONS_PATH=str(project / "collections"), HOME=str(project))
    done = subprocess.run([str(command), "-i", "localhost,", "-c", "local", *args], cwd=project, env=environment,
                          capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return re.findall(r"^TASK \[(.*?)\] \*|^    \"msg\": (.*)$", done.stdout, re.M), output


def test_an_installed_collections_role_and_playbook_run_as_with_ansible_core(tmp_path: Path) -> None:
    galaxy = Galaxy(tmp_path / "home")
    project = tmp_path / "project"
    project.mkdir()
    galaxy("collection", "build", str(make_collection(tmp_path / "src")), "--output-path", str(project))
    requirements = project / "requirements.yml"
    requirements.write_text("collections:\n  - name: ./demo-tools-1.0.0.tar.gz\n    type: file\n")
    galaxy("collection", "install", "-r", str(requirements), "-p", str(project / "collections"))
    (project / "main.yml").write_text("- import_playbook: demo.tools.site\n")
    for args in (["demo.tools.site"], ["main.yml"]):
        ours, output = run(OURS, project, *args)
        assert ("demo.tools.base : base", "") in ours, output
        theirs, _ = run(ansible_binary("ansible-playbook"), project, *args)
        assert ours == theirs
