"""What the whole suite shares: its fixtures come from the plugin tests/plugin/, registered here once."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

pytest_plugins = ["tests.plugin.hosts", "tests.plugin.keeper", "tests.plugin.remote_hosts", "tests.plugin.local_hosts",
                  "tests.plugin.postgres", "tests.plugin.galaxy", "tests.plugin.ansible_core"]

_DATA_HOME = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Runs are recorded by default into the user's data directory: the suite's runs (in-process, and the commands
    it starts, which inherit the environment) go to a directory of this session instead, never the tester's own."""
    config.stash[_DATA_HOME] = os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="provisioning-test-data-")


def pytest_unconfigure(config: pytest.Config) -> None:
    data_home = config.stash.get(_DATA_HOME, None)
    if data_home:
        shutil.rmtree(data_home, ignore_errors=True)
