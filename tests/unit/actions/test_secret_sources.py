"""``--diff`` of a file copied or templated from a vault-encrypted source: its content is hidden unless the user
opts in (``--diff-secrets``, ``diff_secret_sources``), as ansible-core always shows it; opted in, the diff shows
the plaintext while every other place the secret appears is still masked. Runs over the local connection."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from runner.secrets.vault_format import encrypt
from tests.support.scripts import script

SECRET = "db-password-4711"
PLAYBOOK = """\
- hosts: localhost
  gather_facts: false
  connection: local
  tasks:
    - copy: {{src: secret.txt, dest: "{dest}/copied.txt"}}
    - template: {{src: secret.j2, dest: "{dest}/templated.txt"}}
    - debug: msg="{{{{ lookup('file', 'secret.txt') }}}}"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "copied.txt").write_text("old copied\n")
    (tmp_path / "pass").write_text("pw\n")
    (tmp_path / "secret.txt").write_bytes(encrypt(f"{SECRET}\n".encode(), b"pw"))
    (tmp_path / "secret.j2").write_bytes(encrypt(b"user = {{ 'admin' }}\npassword = " + SECRET.encode() + b"\n",
                                                 b"pw"))
    (tmp_path / "site.yml").write_text(PLAYBOOK.format(dest=tmp_path / "out"))
    return tmp_path


def run(project: Path, *options: str, **environment: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PROVISIONING_", "ANSIBLE_"))}
    env.update(PROVISIONING_RECORD_RUNS="false", PROVISIONING_PLAN_CACHE="false", **environment)
    result = subprocess.run([script("provisioning-playbook"), "-i", "localhost,", "site.yml", "--diff",
                             "--vault-password-file", "pass", *options], capture_output=True, text=True,
                            cwd=project, env=env, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def test_the_diff_of_an_encrypted_source_is_hidden_by_default(project: Path) -> None:
    output = run(project).stdout
    assert output.count("+[content hidden: the source is encrypted]") == 2
    assert "-[old content hidden: the source is encrypted]" in output  # copied.txt existed: it changed
    assert SECRET not in output and "old copied" not in output


@pytest.mark.parametrize("opt_in", ["option", "setting"])
def test_opted_in_the_diff_shows_the_content_and_nothing_else_does(project: Path, opt_in: str) -> None:
    result = run(project, "--diff-secrets") if opt_in == "option" else run(
        project, PROVISIONING_DIFF_SECRET_SOURCES="true")
    output = result.stdout
    assert "[content hidden" not in output
    assert "-old copied" in output and f"+{SECRET}" in output  # the copy's diff, the secret's own line
    assert "+user = admin" in output and f"+password = {SECRET}" in output  # the template's, rendered
    assert output.count(SECRET) == 2  # the diffs only: the debug of the same secret is still masked
    assert '"msg": "********"' in output
