"""Where vault passwords come from, as Ansible's ``--vault-id``/``--vault-password-file``/``--ask-vault-pass``.

A source is ``prompt`` (asked on the terminal), a plain file (its content, surrounding whitespace removed), or an
executable file: a script whose standard output is the password. A script named ``*-client`` (with or without an
extension) is a client script: it is run with ``--vault-id LABEL`` and exit code 2 means it has no password for
that label.
"""

from __future__ import annotations

import getpass
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from runner.secrets.detect import is_vault
from runner.secrets.errors import PasswordSourceError, VaultOptionError
from runner.secrets.vault_format import DEFAULT_VAULT_ID

PROMPT = "prompt"
_CLIENT_UNKNOWN_ID = 2


@dataclass(frozen=True)
class VaultIdSpec:
    """One ``--vault-id`` value: ``label@source`` or a bare source (label ``default``)."""

    label: str
    source: str

    @classmethod
    def parse(cls, text: str) -> VaultIdSpec:
        label, separator, source = text.partition("@")
        if not separator:
            return cls(DEFAULT_VAULT_ID, text)
        if not label or not source:
            raise VaultOptionError(f"--vault-id {text!r}: expected LABEL@SOURCE (a file, a script or 'prompt')")
        return cls(label, source)

    def __str__(self) -> str:
        return f"{self.label}@{self.source}"


def is_client_script(path: str | Path) -> bool:
    return os.path.splitext(str(path))[0].endswith("-client")


def read_password(spec: VaultIdSpec, *, confirm: bool = False, prompt_label: str = "Vault password") -> bytes:
    """The password ``spec`` names, read now; any failure is a ``PasswordSourceError`` naming the source."""
    if spec.source == PROMPT:
        return _prompt(spec.label, confirm=confirm, prompt_label=prompt_label)
    path = Path(spec.source).expanduser()
    if not path.exists():
        raise PasswordSourceError(f"the vault password file {path} was not found (vault id '{spec.label}')")
    if path.is_dir():
        raise PasswordSourceError(f"the vault password file {path} is a directory (vault id '{spec.label}')")
    if os.access(path, os.X_OK):
        password = _run_script(path, spec.label)
        where = "script"
    else:
        try:
            password = path.read_bytes().strip()
        except OSError as exc:
            raise PasswordSourceError(f"cannot read the vault password file {path}: {exc.strerror}") from None
        if is_vault(password):
            raise PasswordSourceError(f"the vault password file {path} is itself vault-encrypted; "
                                      "give the password in plain text, or a script that prints it")
        where = "file"
    password = password.strip(b"\r\n")
    if not password:
        raise PasswordSourceError(f"the vault password {where} {path} gave an empty password "
                                  f"(vault id '{spec.label}')")
    return password


def read_password_file(source: str, what: str) -> str:
    """A connection or become password from ``source``, as Ansible's ``--connection-password-file`` and
    ``--become-password-file`` read it: ``-`` is standard input, an executable file is run and its standard
    output is the password, any other file is read; surrounding whitespace is removed."""
    if source == "-":
        secret = sys.stdin.buffer.read()
    else:
        path = Path(source).expanduser()
        if not path.is_file():
            raise PasswordSourceError(f"the {what} {path} was not found" if not path.exists() else
                                      f"the {what} {path} is not a file")
        if os.access(path, os.X_OK):
            secret = _run(path, [str(path.resolve())], f"{what} script", capture_stderr=True)
        else:
            try:
                secret = path.read_bytes()
            except OSError as exc:
                raise PasswordSourceError(f"cannot read the {what} {path}: {exc.strerror}") from None
    return secret.decode("utf-8", "replace").strip()


def _run_script(path: Path, label: str) -> bytes:
    command = [str(path.resolve())]
    client = is_client_script(path)
    if client:
        command += ["--vault-id", label]
    # A plain script's stderr stays on the terminal, so it can prompt; a client script's is captured for the
    # error message, as Ansible does.
    return _run(path, command, "vault password script", capture_stderr=client, label=label)


def _run(path: Path, command: list[str], what: str, *, capture_stderr: bool, label: str | None = None) -> bytes:
    """The standard output of a password script; a script that cannot run, fails or hangs is an error."""
    about = f" (vault id '{label}')" if label else ""
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE if capture_stderr else None,
                              stdin=None if capture_stderr else subprocess.DEVNULL, check=False, timeout=300)
    except OSError as exc:
        raise PasswordSourceError(f"cannot run the {what} {path}: {exc.strerror or exc} "
                                  "(if it is not a script, remove its executable bit)") from None
    except subprocess.TimeoutExpired:
        raise PasswordSourceError(f"the {what} {path} did not finish within 300 s") from None
    stderr = (done.stderr or b"").decode("utf-8", "replace").strip()
    if label and is_client_script(path) and done.returncode == _CLIENT_UNKNOWN_ID:
        raise PasswordSourceError(f"the vault password client script {path} has no password for vault id "
                                  f"'{label}'" + (f": {stderr}" if stderr else ""))
    if done.returncode != 0:
        raise PasswordSourceError(f"the {what} {path} exited {done.returncode}{about}"
                                  + (f": {stderr}" if stderr else ""))
    return done.stdout


def _prompt(label: str, *, confirm: bool, prompt_label: str) -> bytes:
    suffix = "" if label == DEFAULT_VAULT_ID else f" ({label})"
    try:
        first = getpass.getpass(f"{prompt_label}{suffix}: ")
        if confirm and getpass.getpass(f"Confirm {prompt_label}{suffix}: ") != first:
            raise PasswordSourceError("passwords do not match")
    except EOFError:
        raise PasswordSourceError(f"no vault password could be read for vault id '{label}' "
                                  "(standard input is closed)") from None
    if not first:
        raise PasswordSourceError(f"an empty vault password was given (vault id '{label}')")
    return first.encode("utf-8")
