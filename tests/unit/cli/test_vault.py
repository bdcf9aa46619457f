"""``provisioning-vault`` as a user runs it: each verb, the editor's temporary file, and bad input."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.playbook_run import CONFIG as TEST_CONFIG
from tests.support.scripts import script
from tests.support.secrets import fresh_censor


@pytest.fixture(autouse=True)
def _forget_secrets() -> Iterator[None]:
    with fresh_censor():
        yield


@pytest.fixture
def password(tmp_path: Path) -> Path:
    path = tmp_path / "vault.pass"
    path.write_text("cli-password\n")
    return path


def vault(*argv: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PROVISIONING_CONFIG": str(TEST_CONFIG), **(env or {})}
    return subprocess.run([script("provisioning-vault"), *argv], capture_output=True, text=True, input=stdin,
                          env=full_env, timeout=120, check=False)


def editor(tmp_path: Path, body: str) -> dict[str, str]:
    """An $EDITOR that records the file it was given (and its mode), then runs ``body`` on it ("$1")."""
    path = tmp_path / "editor.sh"
    log = tmp_path / "editor.log"
    path.write_text(f'#!/bin/sh\necho "$1 $(stat -c %a "$1")" >> {log}\n{body}\n')
    path.chmod(0o755)
    return {"EDITOR": str(path)}


def edited_files(tmp_path: Path) -> list[tuple[str, str]]:
    return [tuple(line.split()) for line in (tmp_path / "editor.log").read_text().splitlines()]  # type: ignore[misc]


def test_create_then_edit_then_view(tmp_path: Path, password: Path) -> None:
    target = tmp_path / "secrets.yml"
    done = vault("create", "--vault-id", f"ops@{password}", str(target),
                 env=editor(tmp_path, 'printf "token: first\\n" > "$1"'))
    assert done.returncode == 0, done.stderr
    assert target.read_text().startswith("$ANSIBLE_VAULT;1.2;AES256;ops\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    done = vault("edit", "--vault-id", f"ops@{password}", str(target),
                 env=editor(tmp_path, 'sed -i s/first/second/ "$1"'))
    assert done.returncode == 0, done.stderr
    assert target.read_text().startswith("$ANSIBLE_VAULT;1.2;AES256;ops\n")  # same vault id as before
    assert vault("view", "--vault-id", f"ops@{password}", str(target)).stdout == "token: second\n"
    for temporary, mode in edited_files(tmp_path):
        assert mode == "600"
        assert not Path(temporary).exists() and not Path(temporary).parent.exists()


def test_an_editor_that_fails_saves_nothing_and_leaves_no_plaintext(tmp_path: Path, password: Path) -> None:
    target = tmp_path / "secrets.yml"
    target.write_text("token: kept\n")
    assert vault("encrypt", "--vault-password-file", str(password), str(target)).returncode == 0
    before = target.read_bytes()
    done = vault("edit", "--vault-password-file", str(password), str(target),
                 env=editor(tmp_path, 'echo changed > "$1"; exit 3'))
    assert done.returncode == 1 and "exited 3" in done.stderr and "Traceback" not in done.stderr
    assert target.read_bytes() == before
    assert all(not Path(temporary).exists() for temporary, _ in edited_files(tmp_path))


def test_encrypt_string_from_stdin_and_decrypt_to_stdout(tmp_path: Path, password: Path) -> None:
    done = vault("encrypt_string", "--vault-password-file", str(password), "--stdin-name", "db_pass",
                 stdin="from-stdin")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("db_pass: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n")
    path = tmp_path / "file.yml"
    path.write_text("x: 1\n")
    vault("encrypt", "--vault-password-file", str(password), str(path))
    out = vault("decrypt", "--vault-password-file", str(password), "--output", "-", str(path))
    assert out.returncode == 0 and out.stdout == "x: 1\n"
    assert path.read_text().startswith("$ANSIBLE_VAULT")  # --output leaves the file encrypted


@pytest.mark.parametrize(("damage", "words"), [
    (lambda text: text, "none of the vault passwords given"),  # the wrong password: see vault() call below
    (lambda text: text.replace("AES256", "AES999"), "unknown vault cipher"),
    (lambda text: text[: len(text) // 2], "cut short"),
    (lambda text: text[:40] + "zz" + text[42:], "not valid hex"),
])
def test_bad_input_is_one_message_naming_the_file_and_touches_nothing(tmp_path: Path, password: Path,
                                                                       damage, words: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "damaged.yml"
    path.write_text("x: 1\n")
    vault("encrypt", "--vault-password-file", str(password), str(path))
    path.write_text(damage(path.read_text()))
    before = path.read_bytes()
    wrong = tmp_path / "wrong.pass"
    wrong.write_text("not-the-password\n")
    used = wrong if "none of" in words else password
    done = vault("decrypt", "--vault-password-file", str(used), str(path))
    assert done.returncode == 1, done.stderr
    assert str(path) in done.stderr and words in done.stderr and "Traceback" not in done.stderr
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged.yml", "vault.pass", "wrong.pass"]


def test_an_unknown_encrypt_vault_id_is_an_option_error(tmp_path: Path, password: Path) -> None:
    path = tmp_path / "file.yml"
    path.write_text("x: 1\n")
    done = vault("encrypt", "--vault-id", f"dev@{password}", "--encrypt-vault-id", "prod", str(path))
    assert done.returncode == 5 and "--encrypt-vault-id 'prod'" in done.stderr
    assert path.read_text() == "x: 1\n"


def test_a_missing_password_file_names_it_and_exits_1(tmp_path: Path) -> None:
    done = vault("view", "--vault-id", f"ops@{tmp_path / 'nope.pass'}", str(tmp_path / "x.yml"))
    assert done.returncode == 1 and "nope.pass was not found (vault id 'ops')" in done.stderr


def test_a_client_script_is_asked_for_its_vault_id(tmp_path: Path) -> None:
    client = tmp_path / "pass-client.sh"
    client.write_text('#!/bin/sh\n[ "$1" = --vault-id ] && [ "$2" = ops ] && echo client-password && exit 0\n'
                      'echo "unknown id $2" >&2; exit 2\n')
    client.chmod(0o755)
    path = tmp_path / "file.yml"
    path.write_text("x: 1\n")
    assert vault("encrypt", "--vault-id", f"ops@{client}", str(path)).returncode == 0
    assert vault("view", "--vault-id", f"ops@{client}", str(path)).stdout == "x: 1\n"
    done = vault("view", "--vault-id", f"dev@{client}", str(path))
    assert done.returncode == 1 and "has no password for vault id 'dev': unknown id dev" in done.stderr
