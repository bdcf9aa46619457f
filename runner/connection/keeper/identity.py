"""What decides a connection and an agent, as the keys the keeper finds them by.

A connection's key is every setting that decides how it is made (address, port, user, keys, host-key policy,
OpenSSH arguments, timeouts and keepalives), the ssh-agent socket, and the identity of every file that took part:
key files, known_hosts files and OpenSSH configuration files (path, inode, mtime, size and a hash of the content),
so a changed key file or known_hosts means a new connection. An agent's key adds what decides the agent: the
interpreter and the become user, method and flags. Passwords are in both only as an HMAC under the keeper's own
random salt, so neither the keeper nor its socket ever holds one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import os
from typing import Any

from runner.connection.settings import BecomeSettings, ConnectionSettings
from runner.connection.ssh_options import ssh_target

# Settings that decide the agent, not the connection: a different become user gets another agent on the same
# connection. The inventory name only names the host.
_AGENT_SETTINGS = frozenset(["name", "interpreter", "interpreter_fallback", "interpreter_mode", "become", "become_user",
                             "become_method", "become_password", "become_flags", "become_exe", "sudo_chdir",
                             "su_prompts"])
_CONNECTING_AGENT_SETTINGS = _AGENT_SETTINGS - {"name"}
_DEFAULT_KEYS = ("id_ed25519", "id_ecdsa", "id_ecdsa_sk", "id_ed25519_sk", "id_rsa", "id_dsa")


def connection_settings(settings: ConnectionSettings) -> dict[str, Any]:
    """The settings the keeper needs to connect: no become settings (the become password never goes to it).
    Every field is a plain value, so a shallow copy does: ``dataclasses.asdict``'s deep copy of each field, twice
    per host, was the largest single item in the profile of a warm run's workers."""
    return {field.name: getattr(settings, field.name) for field in dataclasses.fields(settings)
            if field.name not in _CONNECTING_AGENT_SETTINGS}


def secret_digest(secret: str | None, salt: bytes) -> str | None:
    return None if secret is None else hmac.new(salt, secret.encode(), hashlib.sha256).hexdigest()


def fingerprint(path: str) -> list[Any]:
    """A file's identity: a changed or replaced file (another inode, mtime, size or content) is another one."""
    try:
        info = os.stat(path)
        with open(path, "rb") as handle:
            digest = hashlib.sha256(handle.read(1 << 20)).hexdigest()
    except OSError:
        return [path, None]
    return [path, info.st_ino, info.st_mtime_ns, info.st_size, digest]


def decisive_files(settings: ConnectionSettings) -> list[str]:
    """The files a connection with ``settings`` reads: its keys, known_hosts and OpenSSH configuration files."""
    if settings.connection == "local":
        return []
    target = ssh_target(settings, lambda path: path)  # the paths, unread
    options = target.options
    keys = options.get("client_keys")
    if isinstance(keys, list) and keys:
        files = [str(key) for key in keys]
    else:
        files = [os.path.expanduser(f"~/.ssh/{name}") for name in _DEFAULT_KEYS]
    known = options.get("known_hosts", os.path.expanduser("~/.ssh/known_hosts"))
    if isinstance(known, str):
        files.append(known)
    elif isinstance(known, (list, tuple)):
        files.extend(str(path) for path in known)
    files.extend(str(path) for path in options.get("config") or ())
    return files


def connection_key(settings: ConnectionSettings, salt: bytes) -> tuple[str, list[str]]:
    """The key of the connection ``settings`` make, and the files it depends on."""
    values = connection_settings(settings)
    del values["name"]  # two inventory names of one place share its connection
    values["password"] = secret_digest(settings.password, salt)
    files = decisive_files(settings)
    values["files"] = [fingerprint(path) for path in files]
    values["ssh_auth_sock"] = os.environ.get("SSH_AUTH_SOCK")
    return _digest(values), files


def agent_key(settings: ConnectionSettings, become: BecomeSettings | None, salt: bytes) -> str:
    """The key of an agent on a connection: its interpreter and how it becomes another user."""
    values: dict[str, Any] = {"interpreter": settings.interpreter}
    if settings.interpreter_fallback is not None:  # discovery over other names may find another interpreter
        values["interpreter_fallback"] = list(settings.interpreter_fallback)
    if become is not None:
        values.update(user=become.user, method=become.method, flags=become.flags,
                      password=secret_digest(become.password, salt))
    return _digest(values)


def _digest(values: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(values, sort_keys=True, default=str).encode()).hexdigest()
