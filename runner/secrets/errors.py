"""Errors about secrets: each names the file (and the vault id) it is about, never the secret."""

from __future__ import annotations

from runner.errors import ExitCode, OptionError, UserError


class SecretError(UserError):
    """Encrypted data that cannot be decrypted: a wrong or missing password or key, a damaged envelope.

    Exit code 1, as ansible-playbook's for a vault that does not decrypt."""

    exit_code = ExitCode.ERROR


class VaultFormatError(SecretError):
    """Data that starts like a vault but whose envelope is damaged (bad header, hex, or truncated)."""


class PasswordSourceError(SecretError):
    """A vault password that cannot be had: no such file, a script that fails, an empty password. Exit code 1,
    as Ansible's, before anything runs."""


class VaultOptionError(OptionError):
    """A malformed secrets option (``--vault-id`` without a label or source, an unknown ``--encrypt-vault-id``)."""
