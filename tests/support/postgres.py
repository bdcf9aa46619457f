"""A real PostgreSQL server for tests, started from Debian's binaries in a temporary directory.

It listens on a free loopback port, with its socket in that directory, and trusts local connections (nothing else
can reach it). PostgreSQL refuses to run as root: as root the server runs as ``nobody``, which owns the directory.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SUPERUSER = "records"


def postgres_bin() -> Path | None:
    """The newest /usr/lib/postgresql/VERSION/bin with initdb and pg_ctl, or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                   key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
    return found[-1].parent if found and (found[-1].parent / "initdb").exists() else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    def __init__(self, binaries: Path, directory: Path):
        self.binaries = binaries
        self.directory = directory
        self.port = _free_port()
        self.as_user = "nobody" if os.geteuid() == 0 else None

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.as_user, "--"] if self.as_user else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=120, check=False,
                              cwd=self.directory)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> None:
        if self.as_user:
            user = pwd.getpwnam(self.as_user)
            os.chown(self.directory, user.pw_uid, user.pw_gid)
        data = self.directory / "data"
        self._run(str(self.binaries / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                  "--no-sync")
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(str(self.binaries / "pg_ctl"), "-D", str(data), "-l", str(self.directory / "server.log"),
                  "-o", options, "-w", "-t", "60", "start")

    def stop(self) -> None:
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL."""
        import psycopg

        name = f"runs_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user={SUPERUSER} dbname=postgres",
                             autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    binaries = postgres_bin()
    if binaries is None:
        raise LookupError("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (Debian package postgresql)")
    directory = Path(tempfile.mkdtemp(prefix="records-postgres-"))
    server = PostgresServer(binaries, directory)
    try:
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)
