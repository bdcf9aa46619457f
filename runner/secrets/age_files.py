"""age-encrypted files (binary or ASCII-armored), through pyrage: the same format as the ``age`` tool.

Identities (``AGE-SECRET-KEY-1...`` lines, as ``age-keygen`` writes them) are read from the file named by
``PROVISIONING_AGE_KEY_FILE``, else ``~/.config/provisioning/age/keys.txt``; comments and blank lines are skipped.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from runner.secrets import censor
from runner.secrets.errors import SecretError, VaultOptionError

KEY_FILE_ENV = "PROVISIONING_AGE_KEY_FILE"
DEFAULT_KEY_FILE = "~/.config/provisioning/age/keys.txt"


def key_file() -> Path:
    return Path(os.environ.get(KEY_FILE_ENV) or DEFAULT_KEY_FILE).expanduser()


@lru_cache(maxsize=4)
def _identities(path: Path) -> tuple[Any, ...]:
    import pyrage

    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise SecretError(f"no age identity file: {path} does not exist",
                          hint=f"set {KEY_FILE_ENV} to a file written by age-keygen") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SecretError(f"cannot read the age identity file {path}: {exc}") from None
    identities = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            identities.append(pyrage.x25519.Identity.from_str(text))
        except Exception:
            raise SecretError(f"{path}:{number}: not an age identity (expected AGE-SECRET-KEY-1...)") from None
    if not identities:
        raise SecretError(f"the age identity file {path} holds no identity")
    return tuple(identities)


def decrypt_age(data: bytes, origin: str) -> bytes:
    """The plaintext of an age file read from ``origin``; a ``SecretError`` naming it when no identity opens it."""
    import pyrage

    path = key_file()
    try:
        plaintext = pyrage.decrypt(data, list(_identities(path)))
    except pyrage.DecryptError as exc:
        raise SecretError(f"decryption of {origin} failed: none of the age identities in {path} opens it "
                          f"({exc})") from None
    censor.remember_bytes(plaintext)
    return plaintext


def encrypt_age(plaintext: bytes, recipients: list[str]) -> bytes:
    """``plaintext`` encrypted to every recipient (``age1...``), ASCII-armored so it diffs and mails as text."""
    import pyrage

    parsed = []
    for recipient in recipients:
        try:
            parsed.append(pyrage.x25519.Recipient.from_str(recipient.strip()))
        except Exception:
            raise VaultOptionError(f"--age {recipient!r}: not an age recipient (expected age1...)") from None
    return pyrage.encrypt(plaintext, parsed, armored=True)


def public_keys() -> list[str]:
    """The recipients of the identities in the key file (to encrypt an edited file to the same keys)."""
    return [str(identity.to_public()) for identity in _identities(key_file())]
