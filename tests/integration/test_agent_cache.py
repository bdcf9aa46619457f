"""The agent on a real test host: compiled module code kept between runs, and a clean end when the run closes.

The agent keeps each module's compiled code under ``~/.cache/provisioning/bytecode`` of the user it runs as
(see runner/agent/remote.py), only where that directory is the user's own and nobody else can write to it; its own
compiled code is kept there too (``@agent-...``, runner/agent/boot.py).
"""

from __future__ import annotations

import asyncio
import shlex
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from runner.agent import agent_payload, start_command
from runner.connection import HostSession
from runner.module_index import ModuleIndex
from runner.testenv import TestEnv
from tests.integration.test_testenv import out, run, settings_for

pytestmark = pytest.mark.hosts

HOST = "host2"
CACHE = "/home/deploy/.cache/provisioning/bytecode"


def run_modules(env: TestEnv, calls: list[tuple[str, dict[str, Any]]], *, user: str = "deploy",
                library: list[Path] | None = None) -> list[dict[str, Any]]:
    """Run modules in order on one fresh agent (a new connection), and close it."""

    async def go() -> list[dict[str, Any]]:
        index = ModuleIndex(library or [])
        session = HostSession(replace(settings_for(env, HOST), user=user), index)
        try:
            return [await session.run_module(name, params) for name, params in calls]
        finally:
            await session.close()

    return asyncio.run(go())


def listing(env: TestEnv) -> dict[str, str]:
    """The cache's entries -> their mode, as the host sees them."""
    text = out(env, HOST, f"cd {CACHE} 2>/dev/null && stat -c '%n %a' * || true")
    return dict(line.split() for line in text.splitlines() if line and "*" not in line)


@pytest.fixture
def clean_cache(testenv: TestEnv) -> TestEnv:
    assert run(testenv, HOST, "rm -rf /home/deploy/.cache").rc == 0
    return testenv


def test_compiled_modules_are_kept_for_the_next_run_private_to_the_user(clean_cache: TestEnv) -> None:
    assert run_modules(clean_cache, [("ping", {})])[0]["ping"] == "pong"
    entries = listing(clean_cache)
    names = sorted(name.split("-")[0] for name in entries)
    assert names == ["@agent", "_utils", "ping"]
    assert set(entries.values()) == {"600"}
    assert out(clean_cache, HOST, f"stat -c '%a %U' {CACHE}") == "700 deploy"

    stamps = out(clean_cache, HOST, f"stat -c '%n %Y.%y' {CACHE}/*")
    assert run_modules(clean_cache, [("ping", {})])[0]["ping"] == "pong"
    assert out(clean_cache, HOST, f"stat -c '%n %Y.%y' {CACHE}/*") == stamps  # read, not written again


def test_a_damaged_entry_is_compiled_again(clean_cache: TestEnv) -> None:
    run_modules(clean_cache, [("ping", {})])
    entry = next(name for name in listing(clean_cache) if name.startswith("ping-"))
    assert run(clean_cache, HOST, f"printf 'garbage' > {CACHE}/{entry}", user="deploy").rc == 0

    assert run_modules(clean_cache, [("ping", {"data": "again"})])[0]["ping"] == "again"
    assert run(clean_cache, HOST, f"head -c 7 {CACHE}/{entry}").stdout != b"garbage"


def test_a_cache_others_can_write_to_is_not_used(clean_cache: TestEnv) -> None:
    assert run(clean_cache, HOST, f"mkdir -p {CACHE} && chmod 777 {CACHE}", user="deploy").rc == 0

    assert run_modules(clean_cache, [("ping", {})])[0]["ping"] == "pong"
    assert listing(clean_cache) == {}


def start_agent_alone(env: TestEnv) -> bytes:
    """What an agent started as deploy on the host writes before its first frame is read (nothing is asked)."""

    async def go() -> bytes:
        session = HostSession(settings_for(env, HOST, user="deploy"), ModuleIndex())
        try:
            return (await session.raw(start_command(None), stdin=agent_payload(), timeout=30)).stdout
        finally:
            await session.close()

    return asyncio.run(go())


def test_the_agent_starts_from_its_kept_code_and_a_damaged_copy_is_compiled_again(clean_cache: TestEnv) -> None:
    assert run_modules(clean_cache, [("ping", {})])[0]["ping"] == "pong"
    agent = next(name for name in listing(clean_cache) if name.startswith("@agent-"))
    # The kept code, not the source sent with it, is what the next agent runs: code planted there answers.
    plant = (f"import marshal; open('{CACHE}/{agent}', 'wb').write(marshal.dumps(compile("
             "'import os; os.write(1, b\"planted\"); os._exit(0)', 'planted', 'exec')))")
    assert run(clean_cache, HOST, f"python3 -c {shlex.quote(plant)}", user="deploy").rc == 0
    assert start_agent_alone(clean_cache) == b"planted"

    assert run(clean_cache, HOST, f"printf 'garbage' > {CACHE}/{agent}", user="deploy").rc == 0
    assert run_modules(clean_cache, [("ping", {"data": "again"})])[0]["ping"] == "again"
    assert run(clean_cache, HOST, f"head -c 7 {CACHE}/{agent}").stdout != b"garbage"


def test_a_new_version_of_a_module_replaces_the_old_one(clean_cache: TestEnv, tmp_path: Path) -> None:
    module = tmp_path / "cache_probe.py"
    for version in ("one", "two"):
        module.write_text(f"ARGUMENT_SPEC = {{}}\n\ndef run(module):\n    return {{'version': '{version}'}}\n")
        assert run_modules(clean_cache, [("cache_probe", {})], library=[tmp_path])[0]["version"] == version
    probes = [name for name in listing(clean_cache) if name.startswith("cache_probe-")]
    assert len(probes) == 1


def test_the_agent_ends_and_removes_its_temp_dir_when_the_run_closes(clean_cache: TestEnv, tmp_path: Path) -> None:
    # A module that asks for the agent's temp directory, which the agent removes when it ends.
    module = tmp_path / "tmpdir_probe.py"
    module.write_text("import os\nARGUMENT_SPEC = {}\n\ndef run(module):\n"
                      "    return {'tmpdir': module.tmpdir, 'pid': os.getpid()}\n")
    result = run_modules(clean_cache, [("tmpdir_probe", {})], user="root", library=[tmp_path])[0]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        left = run(clean_cache, HOST, f"kill -0 {result['pid']} 2>/dev/null || test -e {result['tmpdir']}")
        if left.rc != 0:
            break
        time.sleep(0.1)
    assert left.rc != 0, f"the agent (pid {result['pid']}) or its temp dir {result['tmpdir']} is still there"
