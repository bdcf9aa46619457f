"""The vault passwords of a run, and decryption with them in Ansible's order.

A command reads its passwords once, at start (``install_keyring``), before any file is loaded; workers forked
later inherit them. A vault that names a vault id is tried first with that id's passwords, then with the others
(Ansible's default, ``vault_id_match`` off: the id in the header is a hint, not part of what is authenticated).
With ``vault_id_match`` on, only that id's passwords are tried (a vault without an id in its header is the
``vault_identity``'s, ``default`` unless configured), as ansible-core does.
Every plaintext that comes out is remembered (``runner.secrets.censor``) so output can hide it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from runner.secrets import censor
from runner.secrets.errors import SecretError, VaultFormatError, VaultOptionError
from runner.secrets.vault_format import DEFAULT_VAULT_ID, WrongPassword, decrypt_payload, encrypt, parse_envelope


@dataclass(frozen=True)
class VaultPassword:
    vault_id: str
    password: bytes = field(repr=False)
    source: str  # where it came from, for messages: a file name, "prompt"


class Keyring:
    """Passwords in the order given: the first is the one ``encrypt`` uses unless an id is named."""

    def __init__(self, passwords: list[VaultPassword] | None = None, *, id_match: bool = False,
                 default_id: str = DEFAULT_VAULT_ID):
        self.passwords = list(passwords or [])
        self.id_match = id_match  # vault_id_match: a vault is tried only with the passwords of its own id
        self.default_id = default_id  # vault_identity: the id of a vault whose header names none

    @property
    def vault_ids(self) -> list[str]:
        return [entry.vault_id for entry in self.passwords]

    def decrypt(self, data: bytes, origin: str) -> bytes:
        """The plaintext of the vault ``data`` read from ``origin`` (a file, or file:line:col).

        Raises ``SecretError`` naming ``origin`` and the vault id when no password opens it."""
        try:
            envelope = parse_envelope(data)
        except VaultFormatError as exc:
            raise VaultFormatError(f"{origin}: {exc.message}") from None
        wanted = envelope.vault_id or self.default_id
        if not self.passwords:
            raise SecretError(f"{origin} is vault-encrypted (vault id '{wanted}') and no vault password was given",
                              hint="use --vault-id, --vault-password-file or --ask-vault-pass")
        ordered = [entry for entry in self.passwords if entry.vault_id == wanted]
        if not self.id_match:
            ordered += [entry for entry in self.passwords if entry.vault_id != wanted]
        for entry in ordered:
            try:
                plaintext = decrypt_payload(envelope.payload, entry.password)
            except WrongPassword:
                continue
            except VaultFormatError as exc:
                raise VaultFormatError(f"{origin}: {exc.message}") from None
            censor.remember_bytes(plaintext)
            return plaintext
        known = ", ".join(f"'{vault_id}'" for vault_id in dict.fromkeys(self.vault_ids))
        unknown = "" if wanted in self.vault_ids else f"; vault id '{wanted}' has no password given"
        if self.id_match:
            outcome = "none opens it" if wanted in self.vault_ids else "none was given for it"
            raise SecretError(f"decryption of {origin} failed (vault id '{wanted}'): with vault_id_match on, only "
                              f"the passwords of vault id '{wanted}' are tried, and {outcome} (vault ids given: "
                              f"{known})", hint="vault_id_match = false tries every password")
        raise SecretError(f"decryption of {origin} failed (vault id '{wanted}'): none of the vault passwords given "
                          f"(vault ids {known}) opens it{unknown}")

    def password_for_encrypt(self, vault_id: str | None = None) -> VaultPassword:
        """The password ``encrypt`` uses: the one of ``vault_id`` (``--encrypt-vault-id``), else the first."""
        if not self.passwords:
            raise VaultOptionError("a vault password is needed to encrypt",
                                   hint="use --vault-id, --vault-password-file or --ask-vault-pass")
        if vault_id is None:
            return self.passwords[0]
        for entry in self.passwords:
            if entry.vault_id == vault_id:
                return entry
        raise VaultOptionError(f"--encrypt-vault-id {vault_id!r} names none of the vault ids given "
                               f"({', '.join(self.vault_ids)})")

    def encrypt(self, plaintext: bytes, vault_id: str | None = None) -> bytes:
        entry = self.password_for_encrypt(vault_id)
        return encrypt(plaintext, entry.password, entry.vault_id)


_installed = Keyring()


def install_keyring(keyring: Keyring) -> None:
    """Make ``keyring`` the one every loader of this process (and of workers forked later) decrypts with."""
    global _installed
    _installed = keyring


def current_keyring() -> Keyring:
    return _installed
