"""What the secrets tests share: a keyring installed for one test, age keys, and ansible-core's ansible-vault.

``ansible_vault()`` finds ansible-core's ``ansible-vault`` (on PATH, in the compatibility suite's ansible-core
venv, or beside the test interpreter); failing that it installs ansible-core from PyPI into a throwaway
virtualenv, and returns None (the caller skips, saying why) when PyPI cannot be reached.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.compat.runners import BASELINE_VENV
from runner.secrets.keyring import Keyring, VaultPassword, current_keyring, install_keyring

# The compatibility suite's ansible-core venv (bench.compat makes it), reused when it is there
KNOWN_ANSIBLE_BINS = (BASELINE_VENV / "bin",)


@contextmanager
def keyring(*passwords: tuple[str, str]) -> Iterator[Keyring]:
    """Install a keyring of ``(vault id, password)`` pairs for the duration of a ``with`` block."""
    previous = current_keyring()
    ring = Keyring([VaultPassword(vault_id, password.encode(), "test") for vault_id, password in passwords])
    install_keyring(ring)
    try:
        yield ring
    finally:
        install_keyring(previous)


def find_ansible_vault() -> str | None:
    found = shutil.which("ansible-vault")
    if found:
        return found
    for directory in (Path(sys.executable).parent, *KNOWN_ANSIBLE_BINS):
        candidate = directory / "ansible-vault"
        if candidate.exists():
            return str(candidate)
    return None


def install_ansible_core(directory: Path) -> tuple[str | None, str]:
    """ansible-core installed from PyPI into a virtualenv under ``directory``: (its ansible-vault, why not)."""
    venv.create(directory, with_pip=True)
    python = directory / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "ansible-core"],
                          capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        return None, f"ansible-core could not be installed from PyPI: {done.stderr.strip()[-300:]}"
    return str(directory / "bin" / "ansible-vault"), ""


def age_keygen(path: Path) -> str:
    """A new age identity written to ``path`` (0600), as age-keygen writes it; returns its recipient."""
    import pyrage

    identity = pyrage.x25519.Identity.generate()
    path.write_text(f"# created by the tests\n# public key: {identity.to_public()}\n{identity}\n")
    path.chmod(0o600)
    return str(identity.to_public())


@contextmanager
def fresh_censor() -> Iterator[None]:
    """Secrets a test decrypts are forgotten after it, so later tests' output is not masked by them."""
    from runner.secrets import censor

    censor.forget_all()
    try:
        yield
    finally:
        censor.forget_all()
