"""SSH keys of an env: the client key pair, each host's host key (made with ssh-keygen, in parallel), known_hosts."""

from __future__ import annotations

import subprocess
from pathlib import Path

from runner.testenv.errors import TestEnvError
from runner.util.files import atomic_write_text


def generate_keys(keys: list[tuple[Path, str]]) -> None:
    """Create each missing ed25519 key pair (private key path, comment); all ssh-keygen runs at once."""
    running = []
    for path, comment in keys:
        if path.exists() and public_key_path(path).exists():
            continue
        path.unlink(missing_ok=True)
        command = ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)]
        running.append((path, subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                               stderr=subprocess.STDOUT)))
    for path, process in running:
        output, _ = process.communicate()
        if process.returncode != 0:
            raise TestEnvError(f"ssh-keygen failed for {path}: {output.decode(errors='replace').strip()}")


def public_key_path(private_key: Path) -> Path:
    return private_key.with_name(private_key.name + ".pub")


def read_public_key(private_key: Path) -> str:
    """The public key line without its comment: 'ssh-ed25519 AAAA...'."""
    return " ".join(public_key_path(private_key).read_text().split()[:2])


def write_known_hosts(path: Path, host_keys: list[tuple[str, str]]) -> None:
    """One line per (address, public key): OpenSSH's format, keyed by address since port 22 is the default."""
    atomic_write_text(path, "".join(f"{address} {key}\n" for address, key in host_keys))
