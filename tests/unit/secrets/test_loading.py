"""Encrypted data where files are read: whole vault and age files, inline ``!vault`` values decrypted only when
used, SOPS-style documents, infra credentials, and output that masks what was decrypted."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.infra.loader import load_infra
from runner.inventory.datafile import load_data_file
from runner.loader.yaml import load_yaml_file, load_yaml_text
from runner.secrets import censor
from runner.secrets.age_files import KEY_FILE_ENV, encrypt_age
from runner.secrets.encrypted import VaultEncryptedValue
from runner.secrets.errors import SecretError
from runner.secrets.sops import encrypt_sops_document
from runner.secrets.vault_format import encrypt
from runner.templating import Templar, TemplateError
from tests.support.secrets import age_keygen, fresh_censor, keyring


@pytest.fixture(autouse=True)
def _forget_secrets() -> Iterator[None]:
    with fresh_censor():
        yield


def inline(name: str, plaintext: str, password: str, vault_id: str | None = None) -> str:
    vault = encrypt(plaintext.encode(), password.encode(), vault_id).decode()
    return f"{name}: !vault |\n" + textwrap.indent(vault, " " * 10)


@pytest.fixture
def age_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    recipient = age_keygen(tmp_path / "keys.txt")
    monkeypatch.setenv(KEY_FILE_ENV, str(tmp_path / "keys.txt"))
    return recipient


def test_a_vault_encrypted_vars_file_loads_as_its_plaintext(tmp_path: Path) -> None:
    path = tmp_path / "vault.yml"
    path.write_bytes(encrypt(b"db_password: correct-horse\nport: 5432\n", b"pw"))
    with keyring(("default", "pw")):
        assert load_yaml_file(path) == {"db_password": "correct-horse", "port": 5432}
        assert load_data_file(path) == {"db_password": "correct-horse", "port": 5432}  # inventory, group_vars
    assert censor.censor_text("pw is correct-horse") == "pw is ********"


def test_a_wrong_password_on_a_whole_file_names_it(tmp_path: Path) -> None:
    path = tmp_path / "vault.yml"
    path.write_bytes(encrypt(b"a: 1\n", b"pw", "prod"))
    with keyring(("prod", "nope")), pytest.raises(SecretError) as caught:
        load_yaml_file(path)
    assert str(path) in caught.value.message and "'prod'" in caught.value.message


def test_an_inline_value_needs_no_password_until_it_is_used(tmp_path: Path) -> None:
    path = tmp_path / "vars.yml"
    path.write_text(inline("token", "s3cr3t-token", "pw", "api") + "\nplain: hello\n")
    data = load_yaml_file(path)  # no keyring installed: loading alone never decrypts
    assert isinstance(data["token"], VaultEncryptedValue)
    assert "s3cr3t" not in repr(data)
    assert Templar(data).template("{{ plain }}") == "hello"
    with pytest.raises(TemplateError) as caught:
        Templar(data).template("{{ token }}")
    assert f"{path}:1:8" in caught.value.message and "'api'" in caught.value.message
    with keyring(("api", "pw")):
        assert Templar(data).template("{{ token | upper }}") == "S3CR3T-TOKEN"
        assert Templar({"wrapped": {"inner": data["token"]}}).template("{{ wrapped.inner }}") == "s3cr3t-token"


def test_vault_tag_on_a_mapping_is_a_parse_error_at_its_position() -> None:
    with pytest.raises(ParseError) as caught:
        load_yaml_text("a: !vault\n  b: 1\n", "x.yml")
    assert "x.yml:1:4" in str(caught.value) and "must be a string" in caught.value.message


def test_an_age_file_decrypts_with_the_key_file(tmp_path: Path, age_key: str) -> None:
    path = tmp_path / "vars.yml.age"
    path.write_bytes(encrypt_age(b"api_key: age-protected-value\n", [age_key]))
    assert load_yaml_file(path) == {"api_key": "age-protected-value"}


def test_an_age_file_without_the_right_key_names_the_file_and_the_key_file(tmp_path: Path, age_key: str) -> None:
    other = tmp_path / "other.txt"
    stranger = age_keygen(other)
    path = tmp_path / "vars.age"
    path.write_bytes(encrypt_age(b"a: 1\n", [stranger]))
    with pytest.raises(SecretError) as caught:
        load_yaml_file(path)
    assert str(path) in caught.value.message and "keys.txt" in caught.value.message


def test_a_sops_document_keeps_its_shape_and_decrypts_each_value(tmp_path: Path, age_key: str) -> None:
    import yaml

    document = {"database": {"password": "sops-db-secret", "port": 5432, "tls": True},
                "hosts": ["a.example", "b.example"], "comment_unencrypted": "left as written"}
    encrypted = encrypt_sops_document(document, [age_key])
    assert encrypted["database"]["password"].startswith("ENC[AES256_GCM,data:")
    assert encrypted["comment_unencrypted"] == "left as written"
    path = tmp_path / "secure.enc.yaml"
    path.write_text(yaml.safe_dump(encrypted, sort_keys=False))
    assert load_yaml_file(path) == document


def test_a_sops_value_moved_to_another_key_does_not_decrypt(tmp_path: Path, age_key: str) -> None:
    import yaml

    encrypted = encrypt_sops_document({"a": "first-secret", "b": "second-secret"}, [age_key])
    encrypted["a"], encrypted["b"] = encrypted["b"], encrypted["a"]
    path = tmp_path / "swapped.yaml"
    path.write_text(yaml.safe_dump(encrypted, sort_keys=False))
    with pytest.raises(SecretError, match=r"key a\): sops value does not decrypt"):
        load_yaml_file(path)


def test_infra_provider_credentials_from_an_inline_vault_value(tmp_path: Path) -> None:
    path = tmp_path / "infra.yml"
    path.write_text("name: demo\nproviders:\n  upcloud:\n    username: api-user\n"
                    + textwrap.indent(inline("password", "upcloud-api-pass", "pw", "infra"), "    ")
                    + "\nservers: []\n")
    with keyring(("infra", "pw")):
        infra = load_infra(path)
    assert infra.providers.upcloud.password == "upcloud-api-pass"
    with keyring(("infra", "wrong")), pytest.raises(SecretError) as caught:
        load_infra(path)
    assert f"{path}:5:15" in caught.value.message


def test_infra_provider_credentials_from_a_sops_age_document(tmp_path: Path, age_key: str) -> None:
    import yaml

    infra = {"name": "demo", "providers": {"upcloud": {"username": "api-user", "password": "sops-upcloud-pass"}},
             "servers": []}
    path = tmp_path / "infra.yml"
    path.write_text(yaml.safe_dump(encrypt_sops_document(infra, [age_key]), sort_keys=False))
    assert "sops-upcloud-pass" not in path.read_text()
    assert load_infra(path).providers.upcloud.password == "sops-upcloud-pass"


def test_censor_masks_known_secrets_everywhere_and_inline_values_without_decrypting() -> None:
    censor.remember("hunter2-long-secret")
    value = VaultEncryptedValue("$ANSIBLE_VAULT;1.1;AES256\n00", "x.yml:1:1")
    masked = censor.censor({"msg": "pw=hunter2-long-secret", "list": ["hunter2-long-secret"], "raw": value})
    assert masked == {"msg": "pw=********", "list": ["********"], "raw": "********"}
    censor.remember("abc")  # too short to hide without hiding ordinary words
    assert censor.censor_text("abc") == "abc"


def test_a_vault_value_stays_known_as_one_once_read_and_its_plaintext_is_never_rendered(tmp_path: Path) -> None:
    path = tmp_path / "vars.yml"
    path.write_text(inline("token", "{{ not_rendered }}", "pw") + "\nplain: hello\n")
    data = load_yaml_file(path)
    (tmp_path / "vaulted").write_bytes(encrypt(b"x\n", b"pw"))
    with keyring(("default", "pw")):
        templar = Templar({**data, "copied": Templar(data).template("{{ token }}")})
        assert templar.template("{{ token }}") == "{{ not_rendered }}"
        checks = ("token is vault_encrypted", "copied is vault_encrypted", "plain is not vault_encrypted",
                  "(token ~ '') is not vault_encrypted",
                  f"'{tmp_path}/vaulted' is vaulted_file", f"'{path}' is not vaulted_file")
        assert [templar.template("{{ " + check + " }}") for check in checks] == [True] * len(checks)
        with pytest.raises(TemplateError, match=r"Cannot test if the file .* is a vault"):
            templar.template(f"{{{{ '{tmp_path}/nowhere' is vaulted_file }}}}")
