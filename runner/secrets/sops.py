"""SOPS-style YAML: the document stays readable, each value is ``ENC[AES256_GCM,data:...,iv:...,tag:...,type:...]``.

The data key (32 bytes) is age-encrypted to each recipient under ``sops.age[].enc``; a value is AES-256-GCM with
the path of keys leading to it (``a:b:``) as additional data, so a value moved to another key does not decrypt.
Keys ending in the document's ``unencrypted_suffix`` (default ``_unencrypted``) are left as written. The
``sops`` metadata is removed from the result. The document-wide MAC that sops also writes is not checked: each
value is already authenticated by GCM and its path.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from runner.secrets import censor
from runner.secrets.encrypted import same_kind
from runner.secrets.errors import SecretError

_ENC = re.compile(r"^ENC\[AES256_GCM,data:(?P<data>[^,]*),iv:(?P<iv>[^,]+),tag:(?P<tag>[^,]+),type:(?P<type>\w+)\]$")


def is_sops_document(data: Any) -> bool:
    metadata = data.get("sops") if isinstance(data, dict) else None
    return isinstance(metadata, dict) and isinstance(metadata.get("age"), list) and bool(metadata["age"])


def decrypt_sops_document(data: dict[str, Any], origin: str) -> dict[str, Any]:
    """The document with its values decrypted and its ``sops`` metadata removed."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    metadata = data["sops"]
    key = _data_key(metadata, origin)
    suffix = str(metadata.get("unencrypted_suffix") or "_unencrypted")
    cipher = AESGCM(key)

    def walk(value: Any, path: list[str]) -> Any:
        if isinstance(value, dict):
            result = {}
            for name, item in value.items():
                plain = str(name).endswith(suffix)
                result[name] = item if plain else walk(item, [*path, str(name)])
            return same_kind(value, result)
        if isinstance(value, list):
            # sops gives list items their list's path: no index
            return same_kind(value, [walk(item, path) for item in value])
        if isinstance(value, str) and value.startswith("ENC["):
            return _decrypt_value(cipher, value, path, origin)
        return value

    body = same_kind(data, {name: value for name, value in data.items() if name != "sops"})
    return walk(body, [])


def _data_key(metadata: dict[str, Any], origin: str) -> bytes:
    from runner.secrets.age_files import decrypt_age

    failures = []
    for entry in metadata["age"]:
        enc = entry.get("enc") if isinstance(entry, dict) else None
        if not isinstance(enc, str):
            continue
        try:
            key = decrypt_age(enc.encode("ascii"), f"{origin} (sops data key for {entry.get('recipient')})")
        except SecretError as exc:
            failures.append(exc.message)
            continue
        if len(key) != 32:
            raise SecretError(f"{origin}: the sops data key is {len(key)} bytes, expected 32")
        return key
    detail = "; ".join(failures) or "no age entry has an 'enc' field"
    raise SecretError(f"decryption of {origin} failed: no age identity opens its sops data key ({detail})")


def _decrypt_value(cipher: Any, text: str, path: list[str], origin: str) -> Any:
    from cryptography.exceptions import InvalidTag

    where = f"{origin} (key {'.'.join(path) or '<root>'})"
    match = _ENC.match(text)
    if not match:
        raise SecretError(f"{where}: damaged sops value (expected ENC[AES256_GCM,data:...,iv:...,tag:...,type:...])")
    try:
        data, iv, tag = (base64.b64decode(match[name], validate=True) for name in ("data", "iv", "tag"))
        plaintext = cipher.decrypt(iv, data + tag, (":".join(path) + ":").encode("utf-8"))
    except (ValueError, InvalidTag):
        raise SecretError(f"{where}: sops value does not decrypt (damaged, or moved from another key)") from None
    censor.remember_bytes(plaintext)
    return _typed(plaintext.decode("utf-8", "replace"), match["type"], where)


def _typed(text: str, kind: str, where: str) -> Any:
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
        if kind == "bool":
            return text.lower() == "true"
    except ValueError:
        raise SecretError(f"{where}: sops value of type {kind} is {text!r}") from None
    return text


def encrypt_sops_value(cipher: Any, value: Any, path: list[str]) -> str:
    """One value in sops' form (the writer used by ``provisioning-vault encrypt --age --sops``)."""
    import os

    kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else (
        "float" if isinstance(value, float) else "str")
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    iv = os.urandom(32)
    sealed = cipher.encrypt(iv, text.encode("utf-8"), (":".join(path) + ":").encode("utf-8"))
    data, tag = sealed[:-16], sealed[-16:]
    b64 = base64.b64encode
    return f"ENC[AES256_GCM,data:{b64(data).decode()},iv:{b64(iv).decode()},tag:{b64(tag).decode()},type:{kind}]"


def encrypt_sops_document(data: dict[str, Any], recipients: list[str]) -> dict[str, Any]:
    """``data`` with every scalar value encrypted and the ``sops`` metadata added (data key age-encrypted)."""
    import datetime
    import os

    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    from runner.secrets.age_files import encrypt_age

    key = os.urandom(32)
    cipher = AESGCM(key)

    def walk(value: Any, path: list[str]) -> Any:
        if isinstance(value, dict):
            return {name: item if str(name).endswith("_unencrypted") else walk(item, [*path, str(name)])
                    for name, item in value.items()}
        if isinstance(value, list):
            return [walk(item, path) for item in value]
        if value is None:
            return value
        return encrypt_sops_value(cipher, value, path)

    body = walk(data, [])
    body["sops"] = {
        "age": [{"recipient": recipient, "enc": encrypt_age(key, [recipient]).decode("ascii")}
                for recipient in recipients],
        "lastmodified": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "unencrypted_suffix": "_unencrypted",
        "version": "3.8.1",
    }
    return body
