"""A playbook with secrets on the test hosts: vaulted group_vars, an inline ``!vault`` value, a vaulted ``copy``
source and an age-encrypted credentials file, with passwords from a client script (``--vault-id LABEL@SCRIPT``).

The hosts get the plaintext; the output, the JSON and JUnit reports, the run log, the run records and the plan
file get none of it. Wrong passwords stop the run with one message naming the file and vault id, before any host
is touched.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from runner.secrets.age_files import encrypt_age
from runner.secrets.vault_format import encrypt
from runner.testenv import TestEnv
from tests.integration.playbook_run import fresh_dir, host_file
from tests.support.playbook_run import CONFIG
from tests.support.scripts import script
from tests.support.secrets import age_keygen

pytestmark = pytest.mark.hosts

GROUP_SECRET = "group-vars-secret-7f3a"
INLINE_SECRET = "inline-vault-secret-91c2"
FILE_SECRET = "copied-file-secret-5d8e"
AGE_SECRET = "age-credential-secret-c4b0"
SECRETS = (GROUP_SECRET, INLINE_SECRET, FILE_SECRET, AGE_SECRET)

PLAYBOOK = """\
- name: secrets
  hosts: testhosts
  gather_facts: false
  vars_files:
    - credentials.yml.age
  vars:
    api_token: !vault |
{inline}
  tasks:
    - name: make the directory
      file: {{path: "{dest}", state: directory, mode: "0700"}}

    - name: write the secrets
      copy:
        dest: "{dest}/from-vars.txt"
        content: "{{{{ db_password }}}} {{{{ api_token }}}} {{{{ cloud_password }}}}\\n"
        mode: "0600"

    - name: copy the vaulted file
      copy:
        src: files/secret.conf
        dest: "{dest}/secret.conf"
        mode: "0600"

    - name: copy the vaulted file still encrypted
      copy:
        src: files/secret.conf
        dest: "{dest}/secret.conf.vault"
        decrypt: false

    - name: render the vaulted template
      template:
        src: app.conf.j2
        dest: "{dest}/app.conf"
        mode: "0600"

    - name: say the secret out loud
      debug:
        msg: "the token is {{{{ api_token }}}}"
"""


@dataclass
class Project:
    directory: Path
    client: Path
    dest: str


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    directory = tmp_path_factory.mktemp("secrets-project")
    dest = fresh_dir("secrets")
    keys = directory / "age-keys.txt"
    recipient = age_keygen(keys)
    (directory / "group_vars" / "testhosts").mkdir(parents=True)
    (directory / "group_vars" / "testhosts" / "vault.yml").write_bytes(
        encrypt(f"db_password: {GROUP_SECRET}\n".encode(), b"ops-password", "ops"))
    (directory / "files").mkdir()
    (directory / "files" / "secret.conf").write_bytes(
        encrypt(f"password = {FILE_SECRET}\n".encode(), b"ops-password", "ops"))
    (directory / "templates").mkdir()
    (directory / "templates" / "app.conf.j2").write_bytes(
        encrypt(b"# rendered from an encrypted template\ntoken = {{ api_token }}\n", b"ops-password", "ops"))
    (directory / "credentials.yml.age").write_bytes(encrypt_age(f"cloud_password: {AGE_SECRET}\n".encode(),
                                                                [recipient]))
    inline = textwrap.indent(encrypt(INLINE_SECRET.encode(), b"app-password", "app").decode(), " " * 6)
    (directory / "site.yml").write_text(PLAYBOOK.format(inline=inline.rstrip("\n"), dest=dest))
    # A client script, as Ansible's: asked with --vault-id LABEL, exit 2 for a label it does not know.
    client = directory / "vault-pass-client.sh"
    client.write_text(textwrap.dedent("""\
        #!/bin/sh
        case "$2" in
          ops) echo "${WRONG:-ops-password}" ;;
          app) echo app-password ;;
          *) echo "no password for $2" >&2; exit 2 ;;
        esac
        """))
    client.chmod(0o755)
    return Project(directory, client, dest)


def run(project: Project, inventory: Path, *args: str, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PROVISIONING_CONFIG": str(CONFIG),
                "PROVISIONING_AGE_KEY_FILE": str(project.directory / "age-keys.txt"), **(env or {})}
    return subprocess.run([script("provisioning-playbook"), "site.yml", "-i", str(inventory),
                           "--vault-id", f"ops@{project.client}", "--vault-id", f"app@{project.client}", *args],
                          cwd=project.directory, capture_output=True, text=True, env=full_env, timeout=600,
                          check=False)


@pytest.fixture(scope="module")
def finished(project: Project, inventory_path: Path) -> Iterator[tuple[subprocess.CompletedProcess[str], Path]]:
    reports = project.directory / "reports"
    reports.mkdir(exist_ok=True)
    # The run log and the run records are written on the controller's disk too: neither may hold a secret.
    done = run(project, inventory_path, "--diff", "--report", f"json:{reports / 'run.json'}",
               "--report", f"junit:{reports / 'run.xml'}",
               env={"PROVISIONING_LOG_PATH": str(reports / "run.log"),
                    "PROVISIONING_RUNS_DATABASE": str(reports / "runs.db")})
    yield done, reports


def test_the_hosts_get_the_plaintext(finished: tuple[subprocess.CompletedProcess[str], Path], project: Project,
                                     testenv: TestEnv) -> None:
    done, _ = finished
    assert done.returncode == 0, done.stdout + done.stderr
    for host in ("host1", "host2", "host3"):
        assert host_file(testenv, host, f"{project.dest}/from-vars.txt").read_text() == (
            f"{GROUP_SECRET} {INLINE_SECRET} {AGE_SECRET}\n")
        assert host_file(testenv, host, f"{project.dest}/secret.conf").read_text() == f"password = {FILE_SECRET}\n"
        assert host_file(testenv, host, f"{project.dest}/app.conf").read_text() == (
            f"# rendered from an encrypted template\ntoken = {INLINE_SECRET}\n")
        assert host_file(testenv, host, f"{project.dest}/secret.conf.vault").read_bytes() == (
            project.directory / "files" / "secret.conf").read_bytes()


def test_output_and_reports_show_no_secret(finished: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    done, reports = finished
    output = done.stdout + done.stderr
    assert "the token is ********" in output
    # --diff of the vaulted copy source and of the vaulted template: three hosts each
    assert output.count("[content hidden: the source is encrypted]") == 6
    assert "rendered from an encrypted template" not in output
    texts = {"output": output, "json": (reports / "run.json").read_text(), "junit": (reports / "run.xml").read_text(),
             "log": (reports / "run.log").read_text()}
    assert "the token is ********" in texts["log"]
    # The records database as bytes, its write-ahead log included (what a disk holds, not what a query shows).
    records = [path for path in reports.iterdir() if path.name.startswith("runs.db")]
    assert records, "the run was not recorded"
    texts.update({path.name: path.read_bytes().decode("latin-1") for path in records})
    for name, text in texts.items():
        for secret in SECRETS:
            assert secret not in text, f"{secret} in the {name}"


def test_the_plan_file_holds_no_secret(project: Project, inventory_path: Path) -> None:
    plan = project.directory / "plan.json"
    done = run(project, inventory_path, "--plan", str(plan))
    assert done.returncode == 0, done.stdout + done.stderr
    text = plan.read_text()
    assert "__ansible_vault" in text  # the inline value, still encrypted
    for secret in SECRETS:
        assert secret not in text


def test_a_wrong_password_stops_before_any_host_is_touched(project: Project, inventory_path: Path,
                                                           testenv: TestEnv) -> None:
    marker_dir = fresh_dir("secrets-wrong")
    playbook = project.directory / "wrong.yml"
    playbook.write_text(f"- hosts: testhosts\n  gather_facts: false\n  vars_files: [group_vars/testhosts/vault.yml]\n"
                        f"  tasks:\n    - file: {{path: '{marker_dir}', state: directory}}\n")
    full_env = {**os.environ, "PROVISIONING_CONFIG": str(CONFIG), "WRONG": "not-the-password"}
    done = subprocess.run([script("provisioning-playbook"), str(playbook), "-i", str(inventory_path),
                           "--vault-id", f"ops@{project.client}"], cwd=project.directory, capture_output=True,
                          text=True, env=full_env, timeout=600, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "group_vars/testhosts/vault.yml" in done.stderr and "vault id 'ops'" in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert not host_file(testenv, "host1", marker_dir).exists()


def test_an_unknown_vault_id_in_a_client_script_is_an_error_naming_it(project: Project,
                                                                       inventory_path: Path) -> None:
    done = run(project, inventory_path, "--vault-id", f"nobody@{project.client}", "--syntax-check")
    assert done.returncode == 1
    assert "has no password for vault id 'nobody': no password for nobody" in done.stderr
