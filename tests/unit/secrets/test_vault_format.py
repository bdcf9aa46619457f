"""The vault format: envelope, cipher, the order passwords are tried in, and damaged input."""

from __future__ import annotations

import binascii
from collections.abc import Iterator

import pytest

from runner.secrets.errors import SecretError, VaultFormatError
from runner.secrets.keyring import Keyring, VaultPassword
from runner.secrets.vault_format import decrypt_payload, encrypt, parse_envelope, split_payload
from tests.support.secrets import fresh_censor

# Made by ansible-vault 2.19 (``echo -n hello | ansible-vault encrypt_string --vault-id lab@<file with pw1>``):
# a fixed vector, so the format is checked against Ansible's output even where ansible-core is not installed.
ANSIBLE_MADE = b"""$ANSIBLE_VAULT;1.2;AES256;lab
37633766653465373336663063666135373161336638393965613765626532313336386134313364
6161323066646638373262353663336433336666333464660a313763613937633132626165636539
39326136353366633533376335343434393564333932626435353536323239373561366433386363
3930666239663738320a626665363636353136653233306430343062303033363932666230363434
3538
"""


@pytest.fixture(autouse=True)
def _forget_secrets() -> Iterator[None]:
    with fresh_censor():
        yield


def ring(*pairs: tuple[str, str]) -> Keyring:
    return Keyring([VaultPassword(vault_id, password.encode(), "test") for vault_id, password in pairs])


def test_a_vault_made_by_ansible_vault_decrypts() -> None:
    assert ring(("lab", "pw1")).decrypt(ANSIBLE_MADE, "f") == b"hello"


def test_round_trip_with_a_vault_id_writes_version_1_2_wrapped_at_80_columns() -> None:
    data = encrypt(b"x" * 500, b"pw", "prod")
    lines = data.split(b"\n")
    assert lines[0] == b"$ANSIBLE_VAULT;1.2;AES256;prod"
    assert data.endswith(b"\n") and lines[-1] == b""
    assert all(len(line) == 80 for line in lines[1:-2]) and 0 < len(lines[-2]) <= 80
    assert ring(("prod", "pw")).decrypt(data, "f") == b"x" * 500


def test_without_a_vault_id_or_with_default_the_header_is_1_1() -> None:
    assert encrypt(b"a", b"pw").startswith(b"$ANSIBLE_VAULT;1.1;AES256\n")
    assert encrypt(b"a", b"pw", "default").startswith(b"$ANSIBLE_VAULT;1.1;AES256\n")


def test_the_same_salt_gives_the_same_bytes_and_the_layout_is_salt_hmac_ciphertext() -> None:
    salt = b"s" * 32
    first, second = encrypt(b"hello", b"pw", salt=salt), encrypt(b"hello", b"pw", salt=salt)
    assert first == second
    envelope = parse_envelope(first)
    inner = binascii.unhexlify(envelope.payload).split(b"\n")
    assert binascii.unhexlify(inner[0]) == salt
    assert len(binascii.unhexlify(inner[1])) == 32  # HMAC-SHA256
    assert len(binascii.unhexlify(inner[2])) == 16  # "hello" padded to one AES block
    assert decrypt_payload(envelope.payload, b"pw") == b"hello"


def test_the_vault_id_named_in_the_header_is_tried_first_then_the_others() -> None:
    data = encrypt(b"secret", b"right", "prod")
    assert ring(("dev", "wrong"), ("prod", "right")).decrypt(data, "f") == b"secret"
    # the id is a hint, not authenticated: a password under another id still opens it, as in Ansible
    assert ring(("other", "right")).decrypt(data, "f") == b"secret"


def test_a_wrong_password_names_the_file_the_vault_id_and_the_ids_tried() -> None:
    data = encrypt(b"secret", b"right", "prod")
    with pytest.raises(SecretError) as caught:
        ring(("dev", "wrong")).decrypt(data, "group_vars/all/vault.yml")
    message = caught.value.message
    assert "group_vars/all/vault.yml" in message and "'prod'" in message and "'dev'" in message
    assert "vault id 'prod' has no password given" in message


def test_no_password_at_all_says_which_options_give_one() -> None:
    with pytest.raises(SecretError) as caught:
        Keyring().decrypt(encrypt(b"s", b"pw"), "vars.yml")
    assert "vars.yml is vault-encrypted" in caught.value.message
    assert "--vault-id" in (caught.value.hint or "")


@pytest.mark.parametrize(("damage", "words"), [
    (lambda data: data.replace(b"$ANSIBLE_VAULT;1.1;AES256", b"$ANSIBLE_VAULT;1.1"), "header is damaged"),
    (lambda data: data.replace(b"AES256", b"AES128"), "unknown vault cipher"),
    (lambda data: data.replace(b";1.1;", b";9.9;"), "unknown vault format version"),
    (lambda data: data[:data.index(b"\n") + 1], "no encrypted data"),
    (lambda data: data[:len(data) // 2], "cut short"),
    (lambda data: data[:40] + b"zz" + data[42:], "not valid hex"),
    (lambda data: data[:-2] + b"\n", "not valid hex"),  # one hex digit short
    (lambda data: data[:-5] + b"\n", "cut short"),
])
def test_a_damaged_vault_is_a_format_error_naming_the_file(damage, words: str) -> None:  # type: ignore[no-untyped-def]
    data = encrypt(b"some secret text " * 4, b"pw")
    with pytest.raises(VaultFormatError) as caught:
        ring(("default", "pw")).decrypt(damage(data), "damaged.yml")
    assert caught.value.message.startswith("damaged.yml: ")
    assert words in caught.value.message


def test_a_tampered_ciphertext_fails_the_hmac_like_a_wrong_password() -> None:
    data = encrypt(b"secret value", b"pw")
    salt, mac, ciphertext = split_payload(parse_envelope(data).payload)
    flipped = bytes([ciphertext[0] ^ 1]) + ciphertext[1:]
    inner = b"\n".join(binascii.hexlify(part) for part in (salt, mac, flipped))
    tampered = b"$ANSIBLE_VAULT;1.1;AES256\n" + binascii.hexlify(inner) + b"\n"
    with pytest.raises(SecretError, match=r"none of the vault passwords given .* opens it"):
        ring(("default", "pw")).decrypt(tampered, "f")


def test_encrypting_a_vault_again_is_refused() -> None:
    with pytest.raises(VaultFormatError, match="already vault-encrypted"):
        encrypt(encrypt(b"a", b"pw"), b"pw")
