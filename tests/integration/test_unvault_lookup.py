"""The ``unvault`` lookup: a vault-encrypted file's text as it is (``file`` strips it), decrypted with the run's
vault password; a file that is not encrypted is read the same way (local connection, no test host needed)."""

from __future__ import annotations

from pathlib import Path

from runner.secrets.vault_format import encrypt
from tests.integration.local_run import local_project
from tests.integration.local_run import run_command as run

SITE = """\
- hosts: localhost
  gather_facts: false
  tasks:
    - assert:
        that:
          - "lookup('unvault', 'secret.yml') == 'foo: bar\\n'"
          - "lookup('file', 'secret.yml') == 'foo: bar'"
          - "lookup('unvault', 'plain.txt') == '  plain\\n'"
          - "query('unvault', 'secret.yml', 'plain.txt') | length == 2"
"""


def test_unvault_reads_the_decrypted_text_unstripped(tmp_path: Path) -> None:
    project = local_project(tmp_path, "[defaults]\n", site=SITE)
    (project / "pass").write_text("pw\n")
    (project / "secret.yml").write_bytes(encrypt(b"foo: bar\n", b"pw"))
    (project / "plain.txt").write_text("  plain\n")
    result = run(project, "provisioning-playbook", "-i", "hosts", "site.yml", "--vault-password-file", "pass")
    assert result.returncode == 0, result.stdout + result.stderr
