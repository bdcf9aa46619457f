"""``vault`` and ``unvault``: Ansible Vault encryption in a template, byte for byte as ansible-core's filters.

``vault`` encrypts text with the password given (not the run's), under ``vault_id`` (``filter_default`` unless
named, so the envelope is version 1.2 as ansible-core writes it); ``unvault`` decrypts an envelope, an inline
``!vault`` value, or one the run's passwords could not open, and passes any other text through unchanged.
"""

from __future__ import annotations

from typing import Any

import jinja2

from runner.errors import UserError
from runner.secrets.detect import is_vault
from runner.secrets.encrypted import VaultEncryptedValue
from runner.templating.errors import TemplateError

_DEFAULT_ID = "filter_default"


def vault(data: Any, secret: Any, salt: Any = None, vault_id: str = _DEFAULT_ID, wrap_object: bool = False,
          vaultid: str | None = None) -> str | VaultEncryptedValue:
    """``data`` encrypted with ``secret``; ``salt`` makes the result the same on every run. ``wrap_object``
    gives a vault value (``is vault_encrypted``) instead of the envelope's text."""
    password = _bytes(secret, "Secret passed is required to be a string")
    if not isinstance(data, (str, bytes)):
        raise TypeError(f"Can only vault strings, instead we got {type(data)}.")
    plaintext = data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape")
    if vaultid is not None and vault_id == _DEFAULT_ID:  # ansible-core's undocumented older spelling
        vault_id = vaultid
    if salt is not None and not salt:
        raise TemplateError("Unable to encrypt: Empty or invalid salt passed to encrypt()")
    salt_bytes = None if salt is None else (salt if isinstance(salt, bytes) else str(salt).encode("utf-8"))
    from runner.secrets.vault_format import encrypt  # cryptography loads only when a template encrypts

    try:
        envelope = encrypt(plaintext, password, vault_id, salt_bytes).decode("utf-8")
    except UserError as exc:
        raise TemplateError(f"Unable to encrypt: {exc.message}") from None
    if wrap_object:
        return VaultEncryptedValue.opened(envelope, plaintext.decode("utf-8", "surrogateescape"), "<vault filter>")
    return envelope


def unvault(value: Any, secret: Any, vault_id: str = _DEFAULT_ID, vaultid: str | None = None) -> str:
    """The plaintext of ``value`` under ``secret``; text that is not a vault is returned as it is."""
    if isinstance(value, jinja2.Undefined):  # a vault value the run's passwords could not open: its ciphertext
        value = getattr(value, "_undefined_obj", value)
    password = _bytes(secret, "Secret passed is required to be as string")
    if isinstance(value, VaultEncryptedValue):
        value = value.ciphertext
    if not isinstance(value, (str, bytes)):
        raise TypeError(f"Vault should be in the form of a string, instead we got {type(value)}.")
    if vaultid is not None and vault_id == _DEFAULT_ID:
        vault_id = vaultid
    data = value if isinstance(value, bytes) else value.encode("utf-8", "surrogateescape")
    if not is_vault(data.lstrip()):
        return value if isinstance(value, str) else value.decode("utf-8", "surrogateescape")
    from runner.secrets.keyring import Keyring, VaultPassword  # cryptography loads only when a template decrypts

    keyring = Keyring([VaultPassword(vault_id, password, "the unvault filter's secret")])
    try:
        return keyring.decrypt(data.strip(), "the value given to unvault").decode("utf-8", "surrogateescape")
    except UserError as exc:
        raise TemplateError(f"Unable to decrypt: {exc.message}") from None


def _bytes(secret: Any, message: str) -> bytes:
    if isinstance(secret, bytes):
        return secret
    if not isinstance(secret, str):
        raise TypeError(f"{message}, instead we got {type(secret)}.")
    return secret.encode("utf-8")


FILTERS = {"vault": vault, "unvault": unvault}
