"""Where runs are recorded: the ``runs_database`` setting, or the default file. Plain Python: no SQLAlchemy.

A path (or ``sqlite:///...``) is a SQLite file; ``postgresql://`` / ``postgres://`` URLs use psycopg 3. Without a
setting, a project that has a ``.provisioning/`` directory keeps its runs there (a project's history stays with
it); otherwise they go to the user's data directory (``$XDG_DATA_HOME/provisioning``, by default
``~/.local/share/provisioning``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from runner.errors import OptionError

DATABASE_NAME = "runs.db"
PROJECT_DIR = ".provisioning"
_POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")


@dataclass(frozen=True)
class DatabaseTarget:
    """A database to record into or read from: ``url`` for SQLAlchemy, ``path`` for a SQLite file."""

    url: str
    path: Path | None = None  # the SQLite file; None for a server

    @property
    def shown(self) -> str:
        """The database as messages name it: the file, or the URL without its password."""
        if self.path is not None:
            return str(self.path)
        scheme, _, rest = self.url.partition("://")
        credentials, at, host = rest.rpartition("@")
        if at and ":" in credentials:
            credentials = credentials.split(":", 1)[0] + ":***"
        return f"{scheme}://{credentials}{at}{host}"


def default_database_path(project_dir: Path) -> Path:
    project_store = project_dir / PROJECT_DIR
    if project_store.is_dir():
        return project_store / DATABASE_NAME
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "provisioning" / DATABASE_NAME


def database_target(setting: str | None, project_dir: Path) -> DatabaseTarget:
    """The database named by ``runs_database`` (a path or URL), else the default one for ``project_dir``."""
    value = (setting or "").strip()
    if not value:
        path = default_database_path(project_dir)
        return DatabaseTarget(f"sqlite:///{path}", path)
    scheme, separator, rest = value.partition("://")
    if not separator:
        path = Path(value).expanduser().absolute()
        if path.is_dir():
            raise OptionError(f"runs_database {value!r} is a directory, expected a database file or a URL")
        return DatabaseTarget(f"sqlite:///{path}", path)
    scheme = scheme.lower()
    if scheme == "sqlite":
        if not rest.startswith("/") or rest == "/":
            raise OptionError(f"runs_database {value!r}: expected sqlite:///PATH (a file, not in memory)")
        path = Path(rest[1:]).expanduser().absolute()
        return DatabaseTarget(f"sqlite:///{path}", path)
    if scheme in _POSTGRES_SCHEMES:
        return DatabaseTarget(f"postgresql+psycopg://{rest}")
    raise OptionError(f"runs_database: unsupported database '{scheme}': expected a SQLite file path or a "
                      "postgresql:// URL")
