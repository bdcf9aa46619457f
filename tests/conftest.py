"""What the whole suite shares: its fixtures come from the plugin tests/plugin/, registered here once."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

pytest_plugins = [
    "tests.plugin.signals",
    "tests.plugin.hosts",
    "tests.plugin.keeper",
    "tests.plugin.remote_hosts",
    "tests.plugin.local_hosts",
    "tests.plugin.postgres",
    "tests.plugin.galaxy",
    "tests.plugin.ansible_core",
    "tests.plugin.ray_cluster",
    "tests.plugin.community_collections",
    "tests.plugin.moto",
]

_DATA_HOME = pytest.StashKey[str]()
_CACHE_HOME = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    """Runs are recorded by default into the user's data directory, and compiled plans and validators kept in the
    user's cache directory: the suite's (in-process, and the commands it starts, which inherit the environment) go
    to directories of this session instead, never the tester's own."""
    config.stash[_DATA_HOME] = os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="provisioning-test-data-")
    config.stash[_CACHE_HOME] = os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="provisioning-test-cache-")


def pytest_unconfigure(config: pytest.Config) -> None:
    for key in (_DATA_HOME, _CACHE_HOME):
        directory = config.stash.get(key, None)
        if directory:
            shutil.rmtree(directory, ignore_errors=True)
