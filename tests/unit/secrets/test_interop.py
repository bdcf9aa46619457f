"""Interoperability both ways with ansible-core's ``ansible-vault`` and with the ``age`` tool: what they encrypt
provisioning reads, what ``provisioning-vault`` encrypts they read."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.loader.yaml import load_yaml_file
from runner.templating import Templar
from tests.support.playbook_run import CONFIG as TEST_CONFIG
from tests.support.scripts import script
from tests.support.secrets import age_keygen, find_ansible_vault, fresh_censor, install_ansible_core, keyring


@pytest.fixture(autouse=True)
def _forget_secrets() -> Iterator[None]:
    with fresh_censor():
        yield


@pytest.fixture(scope="session")
def ansible_vault(tmp_path_factory: pytest.TempPathFactory) -> str:
    """ansible-core's ansible-vault: the one installed, else one installed from PyPI into a throwaway venv."""
    found = find_ansible_vault()
    if found:
        return found
    installed, why = install_ansible_core(tmp_path_factory.mktemp("ansible-core") / "venv")
    if installed is None:
        pytest.skip(why)
    return installed


@pytest.fixture(scope="session")
def age_tool() -> str:
    found = shutil.which("age")
    if not found:
        pytest.skip("the age tool is not installed (Debian package 'age', listed in .ci/packages.txt)")
    return found


@pytest.fixture
def passwords(tmp_path: Path) -> dict[str, Path]:
    files = {}
    for label, password in (("dev", "dev-password"), ("prod", "prod-password"), ("default", "plain-password")):
        files[label] = tmp_path / f"{label}.pass"
        files[label].write_text(password + "\n")
    return files


def run(*argv: str, stdin: str | None = None, environment: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    # The tests' own configuration: a developer's provisioning.cfg (vault settings) must not change the result.
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "PROVISIONING_CONFIG": str(TEST_CONFIG), **(environment or {})}
    env.pop("PROVISIONING_AGE_KEY_FILE", None)
    return subprocess.run(argv, capture_output=True, text=True, input=stdin, env=env, timeout=300, check=False)


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_files_ansible_vault_encrypts_decrypt_here_1_1_and_1_2(ansible_vault: str, passwords: dict[str, Path],
                                                                 tmp_path: Path) -> None:
    plain_file, labelled = tmp_path / "plain.yml", tmp_path / "labelled.yml"
    plain_file.write_text("answer: 42\n")
    labelled.write_text("region: eu-north\n")
    ok(run(ansible_vault, "encrypt", "--vault-password-file", str(passwords["default"]), str(plain_file)))
    ok(run(ansible_vault, "encrypt", "--vault-id", f"prod@{passwords['prod']}", str(labelled)))
    assert plain_file.read_text().startswith("$ANSIBLE_VAULT;1.1;AES256\n")
    assert labelled.read_text().startswith("$ANSIBLE_VAULT;1.2;AES256;prod\n")
    with keyring(("dev", "dev-password"), ("prod", "prod-password"), ("default", "plain-password")):
        assert load_yaml_file(plain_file) == {"answer": 42}
        assert load_yaml_file(labelled) == {"region": "eu-north"}


def test_strings_ansible_vault_encrypts_under_several_ids_decrypt_here(ansible_vault: str,
                                                                       passwords: dict[str, Path],
                                                                       tmp_path: Path) -> None:
    blocks = [ok(run(ansible_vault, "encrypt_string", "--vault-id", f"{label}@{passwords[label]}",
                     "--encrypt-vault-id", label, "--name", f"{label}_token", f"{label}-token-value"))
              for label in ("dev", "prod")]
    path = tmp_path / "vars.yml"
    path.write_text("".join(blocks))
    data = load_yaml_file(path)
    with keyring(("dev", "dev-password"), ("prod", "prod-password")):
        assert Templar(data).template("{{ dev_token }} {{ prod_token }}") == "dev-token-value prod-token-value"


def test_what_provisioning_vault_encrypts_ansible_vault_decrypts(ansible_vault: str, passwords: dict[str, Path],
                                                                 tmp_path: Path) -> None:
    path = tmp_path / "ours.yml"
    path.write_text("db_password: from-provisioning\n")
    ok(run(script("provisioning-vault"), "encrypt", "--vault-id", f"prod@{passwords['prod']}", str(path)))
    assert path.read_text().startswith("$ANSIBLE_VAULT;1.2;AES256;prod\n")
    assert ok(run(ansible_vault, "view", "--vault-id", f"prod@{passwords['prod']}", str(path))) == (
        "db_password: from-provisioning\n")
    string = ok(run(script("provisioning-vault"), "encrypt_string", "--vault-id", f"dev@{passwords['dev']}",
                    "--name", "token", "value-from-provisioning"))
    decrypted = tmp_path / "decrypted.yml"
    ok(run(ansible_vault, "decrypt", "--vault-id", f"dev@{passwords['dev']}", "--output", str(decrypted),
           str(_as_vault_file(string, tmp_path / "string.vault"))))
    assert decrypted.read_text() == "value-from-provisioning"


def _as_vault_file(encrypt_string_output: str, path: Path) -> Path:
    """The vault text of an encrypt_string block, as a file ansible-vault can decrypt."""
    lines = encrypt_string_output.splitlines()[1:]
    path.write_text("\n".join(line.strip() for line in lines) + "\n")
    return path


def test_rekey_with_a_new_vault_id_is_read_by_ansible_vault(ansible_vault: str, passwords: dict[str, Path],
                                                            tmp_path: Path) -> None:
    path = tmp_path / "rekeyed.yml"
    path.write_text("k: v\n")
    ok(run(ansible_vault, "encrypt", "--vault-id", f"dev@{passwords['dev']}", str(path)))
    ok(run(script("provisioning-vault"), "rekey", "--vault-id", f"dev@{passwords['dev']}",
           "--new-vault-id", f"prod@{passwords['prod']}", str(path)))
    assert path.read_text().startswith("$ANSIBLE_VAULT;1.2;AES256;prod\n")
    assert ok(run(ansible_vault, "view", "--vault-id", f"prod@{passwords['prod']}", str(path))) == "k: v\n"


def test_age_files_both_ways_with_the_age_tool(age_tool: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    keys = tmp_path / "keys.txt"
    recipient = age_keygen(keys)
    monkeypatch.setenv("PROVISIONING_AGE_KEY_FILE", str(keys))
    theirs = tmp_path / "theirs.yml.age"
    source = tmp_path / "source.yml"
    source.write_text("api_key: made-by-age\n")
    ok(run(age_tool, "--encrypt", "--armor", "-r", recipient, "-o", str(theirs), str(source)))
    assert load_yaml_file(theirs) == {"api_key": "made-by-age"}
    binary = tmp_path / "binary.age"
    ok(run(age_tool, "--encrypt", "-r", recipient, "-o", str(binary), str(source)))
    assert load_yaml_file(binary) == {"api_key": "made-by-age"}

    ours = tmp_path / "ours.yml"
    ours.write_text("api_key: made-by-provisioning\n")
    ok(run(script("provisioning-vault"), "encrypt", "--age", recipient, str(ours)))
    assert ours.read_text().startswith("-----BEGIN AGE ENCRYPTED FILE-----")
    assert ok(run(age_tool, "--decrypt", "-i", str(keys), str(ours))) == "api_key: made-by-provisioning\n"


@pytest.mark.parametrize("id_match", [False, True])
def test_vault_id_match_tries_only_the_passwords_of_the_vault_id_as_ansible_vault_does(
        ansible_vault: str, passwords: dict[str, Path], tmp_path: Path, id_match: bool) -> None:
    # A file ansible-vault encrypts under the id 'prod'; the right password is then given under the id 'dev'.
    path = tmp_path / "labelled.yml"
    path.write_text("region: eu-north\n")
    ok(run(ansible_vault, "encrypt", "--vault-id", f"prod@{passwords['prod']}", str(path)))
    wrong_label = tmp_path / "prod-password-labelled-dev"
    wrong_label.write_text(passwords["prod"].read_text())
    ours = script("provisioning-vault")
    # ansible-core 2.19 gives this setting no type: any non-empty value, "false" too, turns it on. So it is left
    # unset for ansible-vault when off, and said explicitly to ours, which reads a boolean.
    setting = "true" if id_match else "false"
    viewed = {name: run(command, "view", "--vault-id", f"dev@{wrong_label}", str(path), environment=environment)
              for name, command, environment in (
                  ("ansible-vault", ansible_vault, {"ANSIBLE_VAULT_ID_MATCH": "true"} if id_match else {}),
                  ("ours", ours, {"PROVISIONING_VAULT_ID_MATCH": setting}),
                  ("ours, Ansible's variable", ours, {"ANSIBLE_VAULT_ID_MATCH": setting}))}
    if not id_match:  # off (Ansible's default): every password is tried, whatever its id
        assert {name: ok(done) for name, done in viewed.items()} == dict.fromkeys(viewed, "region: eu-north\n")
        return
    assert {name: done.returncode for name, done in viewed.items()} == dict.fromkeys(viewed, 1)
    for name in ("ours", "ours, Ansible's variable"):
        assert "with vault_id_match on, only the passwords of vault id 'prod' are tried" in viewed[name].stderr
        assert "Traceback" not in viewed[name].stderr


def test_vault_id_match_still_opens_a_vault_with_the_password_of_its_own_id(passwords: dict[str, Path],
                                                                            tmp_path: Path) -> None:
    labelled, unlabelled = tmp_path / "vars.yml", tmp_path / "plain.yml"
    labelled.write_text("a: 1\n")
    unlabelled.write_text("b: 2\n")
    ours = script("provisioning-vault")
    ok(run(ours, "encrypt", "--vault-id", f"prod@{passwords['prod']}", str(labelled)))
    ok(run(ours, "encrypt", "--vault-password-file", str(passwords["default"]), str(unlabelled)))
    match = {"PROVISIONING_VAULT_ID_MATCH": "true"}
    assert ok(run(ours, "view", "--vault-id", f"dev@{passwords['dev']}", "--vault-id", f"prod@{passwords['prod']}",
                  str(labelled), environment=match)) == "a: 1\n"
    # a vault whose header names no id is the default id's (a password given without a label)
    assert ok(run(ours, "view", "--vault-id", f"prod@{passwords['prod']}", "--vault-password-file",
                  str(passwords["default"]), str(unlabelled), environment=match)) == "b: 2\n"
