"""Who may read the records: nobody but this machine by default, else a token or a user with a bcrypt-hashed
password.

A server bound to a loopback address without ``--auth`` serves this machine only, and then answers only
requests whose ``Host`` names a loopback address (a web page elsewhere cannot reach it by DNS rebinding).
Any other address needs ``--auth``: ``token`` (the token from ``--token-file`` or ``PROVISIONING_RUNS_TOKEN``,
sent as ``Authorization: Bearer TOKEN``, or as the password of Basic auth so a browser can ask for it) or
``basic`` (users and bcrypt hashes from ``--password-file``, one ``user:hash`` a line, as ``htpasswd -B``
writes them).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import ipaddress
import os
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path

from runner.errors import OptionError

TOKEN_ENV = "PROVISIONING_RUNS_TOKEN"
MIN_TOKEN_LENGTH = 16
_BCRYPT_PREFIXES = ("$2a$", "$2b$", "$2y$")
_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` stands for is a loopback one (a name is resolved)."""
    name = host.strip("[]")
    if name.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    try:
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    except OSError:
        return False
    return bool(addresses) and all(ipaddress.ip_address(address.split("%")[0]).is_loopback
                                   for address in addresses)


def _host_of(header: str) -> str:
    """``Host: 127.0.0.1:8080`` → ``127.0.0.1``; ``[::1]:8080`` → ``::1``."""
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


@dataclass
class Access:
    """How requests are let in: ``mode`` is ``none`` (loopback only), ``token`` or ``basic``."""

    mode: str = "none"
    token: str | None = None
    users: dict[str, bytes] = field(default_factory=dict)
    _verified: set[str] = field(default_factory=set)  # digests of Basic credentials bcrypt already accepted
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def challenge(self) -> str:
        return 'Basic realm="provisioning runs", charset="UTF-8"'

    def allows(self, authorization: str | None, host_header: str | None) -> bool:
        if self.mode == "none":
            return host_header is None or is_loopback(_host_of(host_header))
        if not authorization:
            return False
        scheme, _, credentials = authorization.partition(" ")
        scheme = scheme.lower()
        if self.mode == "token" and scheme == "bearer":
            return self._token_matches(credentials.strip())
        if scheme == "basic":
            user, password = _basic_credentials(credentials.strip())
            if user is None or password is None:
                return False
            return self._token_matches(password) if self.mode == "token" else self._password_matches(user, password)
        return False

    def _token_matches(self, offered: str) -> bool:
        assert self.token is not None
        return hmac.compare_digest(offered.encode(), self.token.encode())

    def _password_matches(self, user: str, password: str) -> bool:
        """bcrypt is slow by design; a browser sends its credentials with every request (and live progress
        polls), so a pair once verified is remembered, by a digest, for the life of the server."""
        hashed = self.users.get(user)
        if hashed is None:
            return False
        digest = hashlib.sha256(b"\0".join((user.encode(), password.encode(), hashed))).hexdigest()
        with self._lock:
            if digest in self._verified:
                return True
        import bcrypt

        if not bcrypt.checkpw(password.encode(), hashed):
            return False
        with self._lock:
            self._verified.add(digest)
        return True


def _basic_credentials(encoded: str) -> tuple[str | None, str | None]:
    try:
        user, separator, password = base64.b64decode(encoded, validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None, None
    return (user, password) if separator else (None, None)


def make_access(mode: str, host: str, *, token_file: Path | None, password_file: Path | None,
                environ: dict[str, str] | None = None) -> Access:
    """The access rules for serving on ``host``; an OptionError (exit 5) for a missing or weak secret, or a
    non-loopback address without ``--auth``."""
    environ = dict(os.environ) if environ is None else environ
    if mode == "none":
        if not is_loopback(host):
            raise OptionError(f"--host {host}: not a loopback address: serving the run records beyond this machine "
                              "needs --auth token or --auth basic")
        return Access()
    if mode == "token":
        return Access(mode="token", token=_read_token(token_file, environ))
    if mode == "basic":
        if password_file is None:
            raise OptionError("--auth basic needs --password-file (lines of user:bcrypt-hash, as htpasswd -B "
                              "writes them)")
        return Access(mode="basic", users=read_password_file(password_file))
    raise OptionError(f"--auth {mode}: expected none, token or basic")


def _read_token(token_file: Path | None, environ: dict[str, str]) -> str:
    if token_file is not None:
        token = _read_text(token_file, "--token-file").strip()
        source = str(token_file)
    else:
        token = environ.get(TOKEN_ENV, "").strip()
        source = TOKEN_ENV
        if not token:
            raise OptionError(f"--auth token needs a token: --token-file PATH or the {TOKEN_ENV} variable")
    if len(token) < MIN_TOKEN_LENGTH:
        raise OptionError(f"{source}: the token is shorter than {MIN_TOKEN_LENGTH} characters: use a random one "
                          "(for example: python3 -c 'import secrets; print(secrets.token_urlsafe(32))')")
    return token


def read_password_file(path: Path) -> dict[str, bytes]:
    """``user:$2b$...`` lines (blank lines and ``#`` comments allowed) → user → bcrypt hash."""
    _require_bcrypt()
    users: dict[str, bytes] = {}
    for number, line in enumerate(_read_text(path, "--password-file").splitlines(), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        user, separator, hashed = text.partition(":")
        if not separator or not user or not hashed.startswith(_BCRYPT_PREFIXES):
            raise OptionError(f"{path}:{number}:1: expected user:bcrypt-hash (a hash starting with $2b$, as "
                              "htpasswd -B writes it)")
        users[user] = hashed.encode()
    if not users:
        raise OptionError(f"{path}: no user in the password file")
    return users


def _read_text(path: Path, option: str) -> str:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionError(f"{option} {path}: cannot read it: {getattr(exc, 'strerror', None) or exc}") from None


def _require_bcrypt() -> None:
    try:
        import bcrypt  # noqa: F401
    except ImportError:
        raise OptionError("--auth basic needs bcrypt: pip install 'provisioning[web]'") from None

