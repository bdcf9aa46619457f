"""The Ansible Vault format, byte for byte, so files move freely between ansible-vault and provisioning-vault.

An envelope is a header line, ``$ANSIBLE_VAULT;1.1;AES256`` or ``$ANSIBLE_VAULT;1.2;AES256;<vault id>``, then the
payload as hex in lines of 80 characters, and a final newline. The payload, once unhexlified, is three lines of
hex: the salt, the HMAC, the ciphertext. Keys: PBKDF2-HMAC-SHA256 over the password with a 32-byte random salt,
10000 iterations, 80 bytes split into the AES key, the HMAC key and the counter's initial value. The plaintext is
PKCS#7-padded (Ansible pads for CTR too, and a reader expects the padding), encrypted with AES-256-CTR, and the
HMAC-SHA256 covers the ciphertext.
"""

from __future__ import annotations

import binascii
import functools
import hmac
import os
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

from runner.secrets.detect import VAULT_HEADER as HEADER
from runner.secrets.detect import is_vault
from runner.secrets.errors import VaultFormatError

CIPHER_NAME = "AES256"
DEFAULT_VAULT_ID = "default"
_LINE_WIDTH = 80
_KEY_BYTES = 32
_IV_BYTES = 16
_SALT_BYTES = 32
_ITERATIONS = 10000


@dataclass(frozen=True)
class Envelope:
    """What a vault's header says, and its payload (still hex, line breaks removed)."""

    version: str
    cipher: str
    vault_id: str | None
    payload: bytes


class WrongPassword(Exception):
    """The HMAC does not match: this password did not encrypt the data (the caller tries the next one)."""


def parse_envelope(data: bytes) -> Envelope:
    """Split a vault into header fields and hex payload; a damaged header raises ``VaultFormatError``."""
    lines = data.strip().splitlines()
    fields = [field.strip() for field in lines[0].split(b";")] if lines else []
    if len(fields) < 3 or fields[0] != HEADER:
        raise VaultFormatError("vault header is damaged (expected $ANSIBLE_VAULT;<version>;<cipher>[;<vault id>])")
    version = fields[1].decode("ascii", "replace")
    cipher = fields[2].decode("ascii", "replace")
    if version not in ("1.1", "1.2"):
        raise VaultFormatError(f"unknown vault format version {version!r} (known: 1.1, 1.2)")
    if cipher != CIPHER_NAME:
        raise VaultFormatError(f"unknown vault cipher {cipher!r} (known: {CIPHER_NAME})")
    vault_id = fields[3].decode("utf-8", "replace") if len(fields) > 3 and fields[3] else None
    payload = b"".join(line.strip() for line in lines[1:])
    if not payload:
        raise VaultFormatError("vault has a header but no encrypted data")
    return Envelope(version, cipher, vault_id, payload)


def format_envelope(payload: bytes, vault_id: str | None = None) -> bytes:
    """Header, payload in lines of 80, trailing newline; version 1.2 only when a vault id other than default
    is named, as ansible-vault writes it."""
    if vault_id and vault_id != DEFAULT_VAULT_ID:
        header = b";".join([HEADER, b"1.2", CIPHER_NAME.encode(), vault_id.encode("utf-8")])
    else:
        header = b";".join([HEADER, b"1.1", CIPHER_NAME.encode()])
    lines = [header] + [payload[i:i + _LINE_WIDTH] for i in range(0, len(payload), _LINE_WIDTH)]
    return b"\n".join(lines) + b"\n"


def _unhex(data: bytes, what: str) -> bytes:
    try:
        return binascii.unhexlify(data)
    except (binascii.Error, ValueError):
        raise VaultFormatError(f"vault {what} is not valid hex (the file is damaged or was cut short)") from None


def split_payload(payload: bytes) -> tuple[bytes, bytes, bytes]:
    """(salt, hmac, ciphertext) from the hex payload."""
    parts = _unhex(payload, "data").split(b"\n", 2)
    if len(parts) != 3:
        raise VaultFormatError("vault data is incomplete (expected salt, HMAC and ciphertext; was it cut short?)")
    salt, mac_hex, ciphertext_hex = parts
    salt = _unhex(salt, "salt")
    mac = _unhex(mac_hex, "HMAC")
    ciphertext = _unhex(ciphertext_hex, "ciphertext")
    if len(mac) != 32 or not ciphertext or len(ciphertext) % 16:
        raise VaultFormatError("vault data is incomplete (was it cut short?)")
    return salt, mac, ciphertext


@functools.lru_cache(maxsize=64)
def _derive(password: bytes, salt: bytes) -> tuple[bytes, bytes, bytes]:
    # 10000 rounds of PBKDF2 cost milliseconds; the same file's values share a salt per value, not per file,
    # but a vault read twice (a var used by many hosts) is derived once.
    material = PBKDF2HMAC(algorithm=hashes.SHA256(), length=2 * _KEY_BYTES + _IV_BYTES, salt=salt,
                          iterations=_ITERATIONS).derive(password)
    return material[:_KEY_BYTES], material[_KEY_BYTES:2 * _KEY_BYTES], material[2 * _KEY_BYTES:]


def decrypt_payload(payload: bytes, password: bytes) -> bytes:
    """The plaintext of a hex payload; ``WrongPassword`` when the HMAC does not match."""
    salt, mac, ciphertext = split_payload(payload)
    cipher_key, mac_key, iv = _derive(password, salt)
    if not hmac.compare_digest(hmac.new(mac_key, ciphertext, "sha256").digest(), mac):
        raise WrongPassword()
    decryptor = Cipher(algorithms.AES(cipher_key), modes.CTR(iv)).decryptor()
    padded = decryptor.update(ciphertext) + decryptor.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    try:
        return unpadder.update(padded) + unpadder.finalize()
    except ValueError:
        raise VaultFormatError("vault plaintext padding is damaged") from None


def encrypt_payload(plaintext: bytes, password: bytes, salt: bytes | None = None) -> bytes:
    """The hex payload of ``plaintext`` under ``password`` (a fresh random salt unless one is given)."""
    salt = salt or os.urandom(_SALT_BYTES)
    cipher_key, mac_key, iv = _derive(password, salt)
    padder = padding.PKCS7(128).padder()
    encryptor = Cipher(algorithms.AES(cipher_key), modes.CTR(iv)).encryptor()
    ciphertext = encryptor.update(padder.update(plaintext) + padder.finalize()) + encryptor.finalize()
    mac = hmac.new(mac_key, ciphertext, "sha256").digest()
    inner = b"\n".join([binascii.hexlify(salt), binascii.hexlify(mac), binascii.hexlify(ciphertext)])
    return binascii.hexlify(inner)


def encrypt(plaintext: bytes, password: bytes, vault_id: str | None = None, salt: bytes | None = None) -> bytes:
    """A complete vault (envelope and payload), as ansible-vault writes it."""
    if is_vault(plaintext):
        raise VaultFormatError("input is already vault-encrypted")
    return format_envelope(encrypt_payload(plaintext, password, salt), vault_id)
