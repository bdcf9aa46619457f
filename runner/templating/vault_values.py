"""Inline vault values read by a template: their plaintext, or a marker when they cannot be decrypted.

A ``!vault`` value that no password opens does not fail the template that merely reads it: as Ansible 2.19's
``VaultExceptionMarker``, it becomes ``UndecryptableVault``, which fails with the decryption error wherever it is
used (printed, compared, iterated, returned as a template's result), while a filter that accepts it, ``unvault``
with its own password, can still read its ciphertext.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jinja2

from runner.errors import UserError
from runner.secrets.encrypted import VaultEncryptedValue
from runner.templating.errors import TemplateError
from runner.templating.state import current_state
from runner.templating.undefined import Undefined


class VaultDecryptionError(jinja2.TemplateRuntimeError):
    """Raised by Jinja2 (as its ``exc``) when an ``UndecryptableVault`` is used; the templar turns it into a
    ``TemplateError`` that is not an undefined variable's (a variable set to it is not read as undefined)."""


class UndecryptableVault(Undefined):
    """An inline vault value that could not be decrypted, kept for a filter that can (``unvault``)."""

    __slots__ = ()

    @property
    def encrypted(self) -> VaultEncryptedValue:
        value: VaultEncryptedValue = self._undefined_obj
        return value

    def fail(self) -> None:
        raise TemplateError(self._undefined_message)


def reveal(value: VaultEncryptedValue) -> str:
    """An inline vault value's plaintext, decrypted now that a template reads it. The plaintext is not rendered
    again: a secret is data, not a template. A password that does not open it fails the template (the task)."""
    try:
        return value.decrypt()
    except UserError as exc:
        raise _error(exc) from None


def reveal_or_marker(value: VaultEncryptedValue) -> str | UndecryptableVault:
    """``reveal``, except that a value that cannot be decrypted is an ``UndecryptableVault``; the render in
    progress is told, so that its result is checked for one (``check_result``)."""
    try:
        return value.decrypt()
    except UserError as exc:
        state = current_state()
        if state is None:
            raise _error(exc) from None
        state.undecryptable = True
        return UndecryptableVault(hint=_error(exc).message, obj=value, exc=VaultDecryptionError)


def check_result(result: Any) -> None:
    """Fail with its error if ``result`` is, or holds, an ``UndecryptableVault``: a secret that could not be read
    is never handed on as a value."""
    if isinstance(result, UndecryptableVault):
        result.fail()
    elif isinstance(result, Mapping):
        for item in result.values():
            check_result(item)
    elif isinstance(result, (list, tuple)):
        for item in result:
            check_result(item)


def _error(exc: UserError) -> TemplateError:
    # ansible-core 2.19's words (playbooks match on "undecryptable variable")
    return TemplateError(f"Attempt to use undecryptable variable: {exc.message}", hint=exc.hint)
