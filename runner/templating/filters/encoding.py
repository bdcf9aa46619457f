"""Encoding and hashing filters: base64, ``hash``/``checksum``/``md5``/``sha1``, ``password_hash``, ``to_uuid``."""

from __future__ import annotations

import base64
import hashlib
import uuid
from typing import Any

from runner.templating.errors import TemplateError
from runner.templating.filters.crypt import ALGORITHMS, MAX_SALT_LENGTH, SALT_CHARACTERS, random_salt, sha_crypt

_PASSWORD_HASH_ALIASES = {"sha512": "sha512", "sha512_crypt": "sha512", "sha256": "sha256", "sha256_crypt": "sha256"}
_UUID_NAMESPACE_ANSIBLE = uuid.UUID("361E6D51-FAEC-444A-9079-341386DA8E2E")


def _bytes(value: Any, encoding: str = "utf-8") -> bytes:
    return value if isinstance(value, bytes) else str(value).encode(encoding)


def b64encode(value: Any, encoding: str = "utf-8") -> str:
    return base64.b64encode(_bytes(value, encoding)).decode("ascii")


def b64decode(value: Any, encoding: str = "utf-8") -> str:
    try:
        # bytes that are not text in ``encoding`` are kept as lone surrogates, as Ansible's to_text keeps them,
        # so that copy's content writes them back unchanged
        return base64.b64decode(_bytes(value, "ascii")).decode(encoding, "surrogateescape")
    except (ValueError, UnicodeDecodeError) as exc:
        raise TemplateError(f"b64decode: {exc}") from None


def hash_filter(value: Any, hashtype: str = "sha1") -> str:
    try:
        hasher = hashlib.new(hashtype)
    except ValueError:
        raise TemplateError(f"hash: unknown hash type '{hashtype}' (for example sha1, sha256, sha512, md5)") from None
    hasher.update(_bytes(value))
    return hasher.hexdigest()


def checksum(value: Any) -> str:
    """SHA-1, as the ``checksum`` that ``stat`` and ``copy`` report."""
    return hash_filter(value, "sha1")


def md5(value: Any) -> str:
    return hash_filter(value, "md5")


def password_hash(password: Any, hashtype: str = "sha512", salt: str | None = None, salt_size: int | None = None,
                  rounds: int | None = None, ident: str | None = None) -> str:
    """A crypt(3) hash for ``/etc/shadow``. Give ``salt`` to get the same hash on every run (idempotent)."""
    algorithm = _PASSWORD_HASH_ALIASES.get(str(hashtype))
    if algorithm is None:
        raise TemplateError(f"password_hash: hash type '{hashtype}' is not supported; "
                            f"use one of {', '.join(sorted(ALGORITHMS))}")
    if salt is None:
        salt = random_salt(min(int(salt_size or MAX_SALT_LENGTH), MAX_SALT_LENGTH))
    salt = str(salt)
    if not salt or any(char not in SALT_CHARACTERS for char in salt):
        raise TemplateError("password_hash: a salt may only hold the characters ./0-9A-Za-z")
    return sha_crypt(str(password), salt, algorithm=algorithm, rounds=rounds)


def to_uuid(value: Any, namespace: Any = _UUID_NAMESPACE_ANSIBLE) -> str:
    return str(uuid.uuid5(uuid.UUID(str(namespace)) if not isinstance(namespace, uuid.UUID) else namespace,
                          str(value)))


FILTERS = {
    "b64encode": b64encode,
    "b64decode": b64decode,
    "hash": hash_filter,
    "checksum": checksum,
    "sha1": checksum,
    "md5": md5,
    "password_hash": password_hash,
    "to_uuid": to_uuid,
}
