"""Fixtures shared by the whole suite."""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.testenv import DEFAULT_STATE_ROOT, TestEnv, unavailable_reason

_DATA_HOME = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Runs are recorded by default into the user's data directory: the suite's runs (in-process, and the commands
    it starts, which inherit the environment) go to a directory of this session instead, never the tester's own."""
    config.stash[_DATA_HOME] = os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="provisioning-test-data-")


def pytest_unconfigure(config: pytest.Config) -> None:
    data_home = config.stash.get(_DATA_HOME, None)
    if data_home:
        shutil.rmtree(data_home, ignore_errors=True)


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
