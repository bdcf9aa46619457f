"""``provisioning-galaxy`` run in-process with a home of its own, and the local registry the tests start.

Shared by the galaxy tests of roles, sources and collections: every command goes through the CLI itself (click's
runner), with configuration, credentials and content cache in a temporary directory, never the developer's.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from pathlib import Path

import bcrypt
from click.testing import CliRunner

from runner.cli.galaxy import main

USER, PASSWORD = "alice", "correct horse battery staple"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


@dataclass
class Galaxy:
    """``provisioning-galaxy`` with its own home: provisioning.cfg, credentials and content cache under ``home``."""

    home: Path
    settings: str = ""
    printed: str = ""  # everything every command printed, to check that no secret was

    def __post_init__(self) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "provisioning.cfg").write_text(
            f"[galaxy]\ncache_dir = cache\nauth_file = auth.json\n{self.settings}")

    @property
    def cache(self) -> Path:
        return self.home / "cache"

    @property
    def auth_file(self) -> Path:
        return self.home / "auth.json"

    def __call__(self, *args: str, input: str | None = None, expect: int = 0) -> Run:
        env = {"HOME": str(self.home), "DOCKER_CONFIG": str(self.home / ".docker"),
               "PROVISIONING_CONFIG": str(self.home / "provisioning.cfg")}
        result = CliRunner().invoke(main, list(args), env=env, input=input)
        run = Run(result.exit_code, result.stdout, result.stderr)
        self.printed += run.output
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert run.exit_code == expect, f"provisioning-galaxy {' '.join(args)} exited {run.exit_code}:\n{run.output}"
        return run

    def login(self, registry: str) -> Run:
        return self("login", registry, "-u", USER, "--password-stdin", input=PASSWORD + "\n")


def htpasswd_file(path: Path) -> Path:
    hashed = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(rounds=4)).decode()
    path.write_text(f"{USER}:{hashed}\n")
    return path


def make_role(parent: Path, name: str, meta: str, task: str) -> Path:
    role = parent / name
    (role / "tasks").mkdir(parents=True)
    (role / "meta").mkdir()
    (role / "tasks" / "main.yml").write_text(task)
    (role / "meta" / "main.yml").write_text(meta)
    return role
