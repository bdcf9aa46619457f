"""The session's local test hosts (``testenv``, ``inventory_path``), and the ``hosts`` marker kept accurate.

A test needs root and the test hosts exactly when its fixtures reach ``testenv``, so such a test is marked
``hosts`` here rather than by hand: ``-m "not hosts"`` then runs everything that needs no root. Tests that start
test hosts of their own (a TestEnv of their own address range, or the local provider's servers) mark themselves.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.testenv import DEFAULT_STATE_ROOT, TestEnv, unavailable_reason


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "testenv" in getattr(item, "fixturenames", ()) and item.get_closest_marker("hosts") is None:
            item.add_marker(pytest.mark.hosts)


@pytest.fixture(scope="session")
def testenv() -> Iterator[TestEnv]:
    """Three local test hosts (host1..host3 on 127.0.0.20-22, env "pytest") for the session, torn down at its end.

    Addresses start at .20 so they never collide with the env 'default' (127.0.0.2 upward) a developer runs.
    Skips, saying why, where test hosts cannot run (not root, no sshd).
    """
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="pytest", count=3, base_address=20)
    # Several test sessions may run at once on one machine (a developer's and an editor's): each holds a shared
    # lock while it uses the env, and only the last one out tears it down.
    DEFAULT_STATE_ROOT.mkdir(parents=True, exist_ok=True)
    with open(DEFAULT_STATE_ROOT / "pytest.users", "w") as users:
        fcntl.flock(users, fcntl.LOCK_SH)
        env.up()
        try:
            yield env
        finally:
            try:
                fcntl.flock(users, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pass  # another session still uses the hosts
            else:
                env.down()


@pytest.fixture(scope="session")
def inventory_path(testenv: TestEnv) -> Path:
    """The YAML inventory of the session's test hosts (group 'testhosts')."""
    return testenv.inventory_path
