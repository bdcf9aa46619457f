"""An inline ``!vault |`` value: kept encrypted until something reads it.

A play that never uses a value needs no password for it, as in Ansible. The templar turns the value into its
plaintext when a template reads it (``runner.templating.templar``); ``str()`` does the same for code that reads
variables directly. A value that cannot be decrypted raises ``SecretError`` at that moment, naming where it was
written and its vault id, so the task that reads it fails with that message.

Pickling keeps the ciphertext, never the plaintext: what workers send each other or write stays encrypted.
"""

from __future__ import annotations

from typing import Any

from runner.secrets import censor
from runner.secrets.detect import is_vault


@censor.mask_whole
class VaultEncryptedValue:
    """The ciphertext of one inline vault value and where it was written (``file:line:col``)."""

    __slots__ = ("_plaintext", "ciphertext", "origin")

    def __init__(self, ciphertext: str, origin: str = "<string>"):
        self.ciphertext = ciphertext
        self.origin = origin
        self._plaintext: VaultedText | None = None
        censor.arm()

    @classmethod
    def opened(cls, ciphertext: str, plaintext: str, origin: str = "<string>") -> VaultEncryptedValue:
        """A value made by encrypting ``plaintext`` (the ``vault`` filter's ``wrap_object``): it reads without a
        password in this process, as Ansible tags such a value with its secret; pickled, it is ciphertext again."""
        value = cls(ciphertext, origin)
        value._plaintext = VaultedText(plaintext)
        return value

    @property
    def is_well_formed(self) -> bool:
        return is_vault(self.ciphertext.lstrip())

    def decrypt(self) -> VaultedText:
        """The plaintext (decrypted once, then kept in this process), which remembers it came from a vault."""
        if self._plaintext is None:
            from runner.secrets.keyring import current_keyring  # cryptography loads only when a value is used

            data = current_keyring().decrypt(self.ciphertext.strip().encode("ascii", "replace"), self.origin)
            self._plaintext = VaultedText(data.decode("utf-8", "surrogateescape"))
        return self._plaintext

    def __str__(self) -> str:
        return self.decrypt()

    def __repr__(self) -> str:
        # Never the plaintext: a repr ends up in error messages and debug output.
        return f"<vault-encrypted value from {self.origin}>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, VaultEncryptedValue):
            return self.ciphertext == other.ciphertext
        if isinstance(other, str):
            return self.decrypt() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.ciphertext)

    def __reduce__(self) -> tuple[Any, ...]:
        return VaultEncryptedValue, (self.ciphertext, self.origin)

    def sealed(self) -> dict[str, str]:
        """How the value is written out (a plan, an inventory listing): still encrypted, in the form
        ansible-inventory uses."""
        return {"__ansible_vault": self.ciphertext}


class VaultedText(str):
    """An inline vault value's plaintext: a string like any other, which the ``vault_encrypted`` test still knows
    came from a vault (as Ansible 2.19 tags a decrypted value). A string made from it (``x + 'a'``) is plain."""

    __slots__ = ()


def sealed_or_refused(value: Any) -> Any:
    """A serialiser's fallback (pydantic's ``fallback=``, json's ``default=``): inline vault values sealed."""
    if isinstance(value, VaultEncryptedValue):
        return value.sealed()
    raise TypeError(f"cannot serialise a value of type {type(value).__name__}")


def reveal(value: Any) -> Any:
    """``value`` with every inline vault value in it (in dicts and lists too) replaced by its plaintext, for data
    read whole at compile time (an infra file). Containers keep the positions they were read with."""
    if isinstance(value, VaultEncryptedValue):
        return value.decrypt()
    if isinstance(value, dict) and _contains_encrypted(value):
        return same_kind(value, {key: reveal(item) for key, item in value.items()})
    if isinstance(value, list) and _contains_encrypted(value):
        return same_kind(value, [reveal(item) for item in value])
    return value


def same_kind(original: Any, replacement: Any) -> Any:
    """``replacement`` as the same container type as ``original``, with its source positions (``lc``,
    ``source_path``) when it had them."""
    try:
        copy = type(original)(replacement)
    except TypeError:
        return replacement
    for attribute in ("lc", "source_path"):
        if hasattr(original, attribute):
            setattr(copy, attribute, getattr(original, attribute))
    return copy


def _contains_encrypted(value: Any) -> bool:
    if isinstance(value, VaultEncryptedValue):
        return True
    if isinstance(value, dict):
        return any(_contains_encrypted(item) for item in value.values())
    if isinstance(value, list):
        return any(_contains_encrypted(item) for item in value)
    return False
