"""The agent when its channel ends without an exit request (the controller, or its connection, gone): it stops
what it started, removes its partial and staged files, and exits. A real agent, started as the ``local``
connection starts it (a subprocess in its own session); closing its stdin is what sshd does when the connection
drops.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from runner.connection import ConnectionSettings, HostSession
from runner.connection.agent_client import AgentClient, encode_frame
from runner.errors import ConnectionFailure
from runner.module_index import ModuleIndex
from tests.support.processes import processes

GONE_TIMEOUT = 15.0  # generous: the machine is shared


@pytest.fixture
def marker() -> Iterator[str]:
    """A number of seconds no other test sleeps for; whatever still sleeps that long at the end is killed."""
    seconds = str(5_000_000 + secrets.randbelow(1_000_000))
    yield seconds
    for process in processes():
        if f"sleep {seconds}" in process.command and process.running:
            os.kill(process.pid, signal.SIGKILL)


def running(text: str) -> bool:
    return any(text in process.command and process.running for process in processes())


async def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + GONE_TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


@asynccontextmanager
async def local_agent() -> AsyncIterator[tuple[HostSession, AgentClient]]:
    session = HostSession(ConnectionSettings(name="localhost", address="localhost", connection="local"),
                          ModuleIndex())
    agent = await session.agent()
    try:
        yield session, agent
    finally:
        agent.abort()


def test_channel_closed_while_a_module_runs_stops_it(marker: str) -> None:
    async def go() -> None:
        async with local_agent() as (session, agent):
            task = asyncio.ensure_future(session.run_module("shell", {"cmd": f"sleep {marker}"}))
            await wait_until(lambda: running(f"sleep {marker}"), "the command to start")
            agent.process.close_stdin()
            await asyncio.wait_for(agent.process.wait(), GONE_TIMEOUT)
            with pytest.raises(ConnectionFailure):
                await task
            await wait_until(lambda: not running(f"sleep {marker}"), "the command to end")

    asyncio.run(go())


def test_channel_closed_when_idle_stops_what_a_module_left_running(marker: str) -> None:
    async def go() -> None:
        async with local_agent() as (session, agent):
            result = await session.run_module("shell", {"cmd": f"sleep {marker} >/dev/null 2>&1 &"})
            assert not result.get("failed"), result
            assert running(f"sleep {marker}")
            agent.process.close_stdin()
            await asyncio.wait_for(agent.process.wait(), GONE_TIMEOUT)
            await wait_until(lambda: not running(f"sleep {marker}"), "the background command to end")

    asyncio.run(go())


def test_channel_closed_during_an_upload_leaves_no_file(tmp_path: Path) -> None:
    async def go() -> None:
        async with local_agent() as (_, agent):
            staged = tmp_path / ".staged-upload"
            staged.write_bytes(b"")  # reserved on disk, as copy's first call does
            agent.process.write(encode_frame({"op": "put", "path": str(staged), "temporary": True}, b"x" * 4096))
            await agent.process.drain()
            await wait_until(lambda: len(list(tmp_path.iterdir())) == 2, "the partial upload beside the file")
            agent.process.close_stdin()
            await asyncio.wait_for(agent.process.wait(), GONE_TIMEOUT)
            assert list(tmp_path.iterdir()) == []

    asyncio.run(go())


def test_exit_request_leaves_what_a_module_started_in_the_background(marker: str) -> None:
    async def go() -> None:
        async with local_agent() as (session, agent):
            await session.run_module("shell", {"cmd": f"sleep {marker} >/dev/null 2>&1 &"})
            await agent.close()  # the end of a run: an exit request, then the end of the channel
        assert running(f"sleep {marker}")

    asyncio.run(go())
