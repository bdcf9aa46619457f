"""Reading a controller file with its encryption removed: vault (whole file) or age; plain files as they are.

Every place that reads a file Ansible would decrypt goes through ``read_file_bytes``: vars files, inventory
files, ``copy``/``template`` sources, ``lookup('file')``, ``-e @file``, infra files. The plaintext stays in memory.
"""

from __future__ import annotations

from pathlib import Path

from runner.secrets.detect import is_age, is_vault


def decrypt_bytes(data: bytes, origin: str) -> bytes:
    """``data`` decrypted if it is a vault or an age file (``origin`` names it in errors), else as it is."""
    if is_vault(data):
        from runner.secrets.keyring import current_keyring

        return current_keyring().decrypt(data, origin)
    if is_age(data):
        from runner.secrets.age_files import decrypt_age

        return decrypt_age(data, origin)
    return data


def read_file_bytes(path: str | Path) -> bytes:
    """The content of ``path``, decrypted when it is encrypted. ``OSError`` propagates for the caller to word."""
    return decrypt_bytes(Path(path).read_bytes(), str(path))


def is_encrypted_bytes(data: bytes) -> bool:
    return is_vault(data) or is_age(data)
