"""Test hosts of a test module's own (an env name and address range apart from the session's ``testenv``), for
tests that stop, restart or break hosts."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from runner.testenv import TestEnv, unavailable_reason


def own_env(name: str, count: int, base_address: int, prefix: str) -> Iterator[TestEnv]:
    """Bring the env up, yield it, take it down; skips, saying why, where test hosts cannot run. For a
    module-scoped fixture: ``yield from own_env(...)``."""
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name=name, count=count, base_address=base_address, prefix=prefix)
    env.up()
    try:
        yield env
    finally:
        env.down()
