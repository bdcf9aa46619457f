"""Hiding decrypted secrets from everything a run prints or reports.

Each plaintext that comes out of a vault or an age file is remembered here (per process). The callbacks' common
path (``runner.callbacks.base.Callbacks``) passes every event through ``censor`` before any view, report or log
sees it, so a secret that reached a result by any route (a debug, a registered output, an error message) is
shown as ``********``. Workers decrypt on their own; the secrets they learn travel back with their results
(``take_new``/``remember_all``) so the controller's callbacks know them too.

Very short values are not hidden: masking every "1" or "yes" in the output would hide far more than the secret.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

MASK = "********"
MIN_LENGTH = 4

_known: set[str] = set()
_new: list[str] = []
_pattern: re.Pattern[str] | None = None
_armed = False  # anything to hide yet: a secret decrypted, or an inline vault value loaded
# Types whose values are shown as the mask whole, never walked or turned into text. They register themselves
# (``runner.secrets.encrypted``), so that this module, which they use, does not import them: a value of such a
# type exists only once its module is loaded, and so registered.
_masked_types: tuple[type, ...] = ()
_diffs_revealed = False  # diff_secret_sources: the --diff of a file from an encrypted source shows its content


class Revealed(str):
    """Text that holds a secret the user chose to see (the diff of an encrypted source, with
    ``diff_secret_sources``): output shows it as it is."""

    __slots__ = ()


def reveal_secret_diffs(enabled: bool) -> None:
    """Whether the ``--diff`` of a file copied or templated from an encrypted source shows its content (the
    process's setting, made by the command before workers fork, as the keyring is)."""
    global _diffs_revealed
    _diffs_revealed = enabled


def secret_diffs_revealed() -> bool:
    return _diffs_revealed


def arm() -> None:
    """An inline vault value exists: output must be walked from now on, even before any secret is known."""
    global _armed
    _armed = True


def mask_whole(cls: type) -> type:
    """Show every value of ``cls`` as the mask (a class decorator)."""
    global _masked_types
    _masked_types = (*_masked_types, cls)
    return cls


def remember(text: str) -> None:
    """Hide ``text`` from now on (surrounding whitespace aside)."""
    global _pattern
    piece = text.strip()
    if len(piece) >= MIN_LENGTH and piece not in _known:
        arm()
        _known.add(piece)
        _new.append(piece)
        _pattern = None


def remember_leaves(data: Any) -> None:
    """Hide every string in ``data`` (a decrypted vars file: each value is a secret, not only the whole file)."""
    if isinstance(data, str):
        remember(data)
    elif isinstance(data, dict):
        for item in data.values():
            remember_leaves(item)
    elif isinstance(data, list):
        for item in data:
            remember_leaves(item)


def remember_bytes(data: bytes) -> None:
    remember(data.decode("utf-8", "replace"))


def remember_all(texts: Iterable[str]) -> None:
    for text in texts:
        remember(text)


def take_new() -> list[str]:
    """Secrets learnt since the last call (a worker sends them to the controller with each result)."""
    taken = list(_new)
    _new.clear()
    return taken


def has_secrets() -> bool:
    return bool(_known)


def _compiled() -> re.Pattern[str]:
    global _pattern
    if _pattern is None:
        # Longest first, so a secret containing another is masked whole.
        _pattern = re.compile("|".join(re.escape(text) for text in sorted(_known, key=len, reverse=True)))
    return _pattern


def censor_text(text: str) -> str:
    if not _known or not text:
        return text
    return _compiled().sub(MASK, text)


def censor(value: Any) -> Any:
    """``value`` with every known secret replaced by the mask, in strings, keys, containers and dataclasses;
    the value itself when there is nothing to hide (no copy is made then)."""
    if not _armed:
        return value
    return _censor(value, _masked_types)


def _censor(value: Any, sealed: tuple[type, ...]) -> Any:
    if isinstance(value, sealed):  # an inline vault value: never decrypted for output (json's default=str would)
        return MASK
    if isinstance(value, Revealed):
        return value
    if isinstance(value, str):
        masked = censor_text(value)
        return value if masked == value else masked
    if isinstance(value, dict):
        return {_censor(key, sealed): _censor(item, sealed) for key, item in value.items()}
    if isinstance(value, list):
        return [_censor(item, sealed) for item in value]
    if isinstance(value, tuple):
        return tuple(_censor(item, sealed) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _censor(getattr(value, f.name), sealed) for f in dataclasses.fields(value) if f.init}
        return dataclasses.replace(value, **changes)
    return value


def forget_all() -> None:
    """Start over with nothing to hide (a test that decrypted its own secrets cleans up after itself)."""
    global _armed, _pattern
    _known.clear()
    _new.clear()
    _pattern = None
    _armed = False
