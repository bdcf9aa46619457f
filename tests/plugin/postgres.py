"""A PostgreSQL server for the session (``postgres``) and a new empty database on it per test (``postgres_url``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.postgres import PostgresServer, postgres_bin, postgres_server


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session, or the test skipped saying why there is none."""
    if postgres_bin() is None:
        pytest.skip("PostgreSQL is not installed (Debian package postgresql): no /usr/lib/postgresql/*/bin/pg_ctl")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed: pip install 'provisioning[postgres]'")
    with postgres_server() as server:
        yield server


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """A new empty database on the session's server."""
    return postgres.new_database()
