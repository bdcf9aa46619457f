"""Registry credentials, kept as Docker keeps them: ``{"auths": {"HOST[:PORT]": {"auth": base64("user:pass")}}}``.

``login`` writes our own file (``[galaxy] auth_file``, mode 0600, atomically); looking credentials up reads it
first, then Docker's (``$DOCKER_CONFIG/config.json`` or ``~/.docker/config.json``), so a machine already logged in
with ``docker login`` or ``skopeo login --authfile`` needs nothing more. Credentials are never printed: their
``repr`` hides the password, and no message names more than the user.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.galaxy.errors import GalaxyError
from runner.util.files import atomic_write_text


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str = field(repr=False)

    def encoded(self) -> str:
        return base64.b64encode(f"{self.username}:{self.password}".encode()).decode("ascii")

    @classmethod
    def decode(cls, auth: str) -> Credentials | None:
        try:
            username, _, password = base64.b64decode(auth).decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            return None
        return cls(username, password) if username else None


def docker_config_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    if env.get("DOCKER_CONFIG"):
        return Path(env["DOCKER_CONFIG"]) / "config.json"
    return Path(env.get("HOME") or Path.home()) / ".docker" / "config.json"


def _keys(registry: str) -> tuple[str, ...]:
    # Docker writes some registries with their scheme; localhost and 127.0.0.1 name the same machine.
    keys = [registry, f"https://{registry}", f"http://{registry}"]
    host, _, port = registry.partition(":")
    if host in ("localhost", "127.0.0.1"):
        other = "127.0.0.1" if host == "localhost" else "localhost"
        keys.append(f"{other}:{port}" if port else other)
    return tuple(keys)


class CredentialStore:
    """Credentials per registry: ours in ``path``, Docker's in ``docker_path`` (read only)."""

    def __init__(self, path: Path, docker_path: Path | None = None):
        self.path = path
        self.docker_path = docker_path

    def get(self, registry: str) -> Credentials | None:
        for source in (self.path, self.docker_path):
            if source is None:
                continue
            auths = _read(source).get("auths") or {}
            for key in _keys(registry):
                entry = auths.get(key)
                if isinstance(entry, Mapping):
                    found = _from_entry(entry)
                    if found is not None:
                        return found
        return None

    def save(self, registry: str, credentials: Credentials) -> None:
        data = _read(self.path)
        auths = data.setdefault("auths", {})
        auths[registry] = {**(auths.get(registry) or {}), "auth": credentials.encoded()}
        atomic_write_text(self.path, json.dumps(data, indent=2, sort_keys=True) + "\n", mode=0o600)

    def remove(self, registry: str) -> bool:
        """Forget the credentials of ``registry`` in our file; whether there were any."""
        data = _read(self.path)
        auths = data.get("auths") or {}
        removed = [key for key in _keys(registry) if auths.pop(key, None) is not None]
        if removed:
            atomic_write_text(self.path, json.dumps(data, indent=2, sort_keys=True) + "\n", mode=0o600)
        return bool(removed)


def _from_entry(entry: Mapping[str, Any]) -> Credentials | None:
    if entry.get("auth"):
        return Credentials.decode(str(entry["auth"]))
    if entry.get("username") and entry.get("password"):
        return Credentials(str(entry["username"]), str(entry["password"]))
    return None


def _read(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise GalaxyError(f"cannot read the credentials file {path}: {exc.strerror}") from None
    try:
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise GalaxyError(f"{path}:{exc.lineno}:{exc.colno}: the credentials file is not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise GalaxyError(f"{path}: the credentials file should hold a JSON object")
    return data
