"""SHA-256 and SHA-512 crypt (``$5$`` / ``$6$``), as glibc's crypt(3) computes them, in pure Python.

The ``crypt`` module is gone from Python 3.13, and ``password_hash`` must produce the same strings that
``/etc/shadow`` and ``user: password=`` expect. This follows Ulrich Drepper's published specification
("Unix crypt using SHA-256 and SHA-512"), step by step.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

SALT_CHARACTERS = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DEFAULT_ROUNDS = 5000
MIN_ROUNDS, MAX_ROUNDS = 1000, 999_999_999
MAX_SALT_LENGTH = 16

# The order in which the final digest's bytes are encoded, three at a time (from the specification).
_SHA512_ORDER = [(0, 21, 42), (22, 43, 1), (44, 2, 23), (3, 24, 45), (25, 46, 4), (47, 5, 26), (6, 27, 48),
                 (28, 49, 7), (50, 8, 29), (9, 30, 51), (31, 52, 10), (53, 11, 32), (12, 33, 54), (34, 55, 13),
                 (56, 14, 35), (15, 36, 57), (37, 58, 16), (59, 17, 38), (18, 39, 60), (40, 61, 19), (62, 20, 41)]
_SHA256_ORDER = [(0, 10, 20), (21, 1, 11), (12, 22, 2), (3, 13, 23), (24, 4, 14), (15, 25, 5), (6, 16, 26),
                 (27, 7, 17), (18, 28, 8), (9, 19, 29)]

ALGORITHMS: dict[str, tuple[str, Callable[..., Any]]] = {"sha512": ("6", hashlib.sha512),
                                                         "sha256": ("5", hashlib.sha256)}


def _encode_24bit(high: int, middle: int, low: int, characters: int) -> str:
    word = (high << 16) | (middle << 8) | low
    out = []
    for _ in range(characters):
        out.append(SALT_CHARACTERS[word & 0x3F])
        word >>= 6
    return "".join(out)


def _repeat_to(data: bytes, length: int) -> bytes:
    return (data * (length // len(data) + 1))[:length]


def _digest(password: bytes, salt: bytes, rounds: int, hash_function: Callable[..., Any]) -> bytes:
    alternate = hash_function(password + salt + password).digest()
    context = hash_function(password + salt)
    context.update(_repeat_to(alternate, len(password)) if password else b"")
    length = len(password)
    while length:  # one step per bit of the password's length, lowest first
        context.update(alternate if length & 1 else password)
        length >>= 1
    intermediate = context.digest()
    p_bytes = _repeat_to(hash_function(password * len(password)).digest(), len(password)) if password else b""
    s_bytes = _repeat_to(hash_function(salt * (16 + intermediate[0])).digest(), len(salt)) if salt else b""
    current = intermediate
    for index in range(rounds):
        step = hash_function()
        step.update(p_bytes if index % 2 else current)
        if index % 3:
            step.update(s_bytes)
        if index % 7:
            step.update(p_bytes)
        step.update(current if index % 2 else p_bytes)
        current = step.digest()
    return current


def _encode(digest: bytes) -> str:
    if len(digest) == 64:
        body = "".join(_encode_24bit(digest[a], digest[b], digest[c], 4) for a, b, c in _SHA512_ORDER)
        return body + _encode_24bit(0, 0, digest[63], 2)
    body = "".join(_encode_24bit(digest[a], digest[b], digest[c], 4) for a, b, c in _SHA256_ORDER)
    return body + _encode_24bit(0, digest[31], digest[30], 3)


def random_salt(size: int = MAX_SALT_LENGTH) -> str:
    return "".join(secrets.choice(SALT_CHARACTERS) for _ in range(size))


def sha_crypt(password: str, salt: str, *, algorithm: str = "sha512", rounds: int | None = None) -> str:
    """``$6$salt$hash`` (or ``$6$rounds=N$salt$hash`` when ``rounds`` is given and not the default 5000)."""
    identifier, hash_function = ALGORITHMS[algorithm]
    salt = salt[:MAX_SALT_LENGTH]
    effective_rounds = DEFAULT_ROUNDS if rounds is None else min(max(int(rounds), MIN_ROUNDS), MAX_ROUNDS)
    digest = _digest(password.encode("utf-8"), salt.encode("utf-8"), effective_rounds, hash_function)
    rounds_part = f"rounds={effective_rounds}$" if effective_rounds != DEFAULT_ROUNDS else ""
    return f"${identifier}${rounds_part}{salt}${_encode(digest)}"
