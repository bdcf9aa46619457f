"""Telling encrypted data apart from plain data, cheaply (no cryptography imported: every load calls these)."""

from __future__ import annotations

from pathlib import Path

VAULT_HEADER = b"$ANSIBLE_VAULT"
AGE_HEADER = b"age-encryption.org/v1"
AGE_ARMOR_HEADER = b"-----BEGIN AGE ENCRYPTED FILE-----"


def is_vault(data: bytes | str) -> bool:
    """Whether ``data`` starts with the vault header (Ansible's test: the header first, nothing before it)."""
    if isinstance(data, str):
        return data.startswith("$ANSIBLE_VAULT")
    return data.startswith(VAULT_HEADER)


def is_age(data: bytes) -> bool:
    """Whether ``data`` is an age file, binary or ASCII-armored."""
    return data.startswith(AGE_HEADER) or data.lstrip().startswith(AGE_ARMOR_HEADER)


def is_encrypted_file(path: str | Path) -> bool:
    try:
        with open(path, "rb") as handle:
            head = handle.read(64)
    except OSError:
        return False
    return is_vault(head) or is_age(head)
