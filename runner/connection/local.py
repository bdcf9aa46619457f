"""The ``local`` connection: the same agent, started as a subprocess of the worker."""

from __future__ import annotations

import asyncio
import os
import signal

from runner.connection.transport import CommandResult, RemoteProcess, StreamedProcess, Transport


class LocalProcess(StreamedProcess):
    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process
        assert process.stdin and process.stdout and process.stderr
        self.stdin, self.stdout, self.stderr = process.stdin, process.stdout, process.stderr

    def write(self, data: bytes) -> None:
        self.stdin.write(data)

    async def drain(self) -> None:
        await self.stdin.drain()

    def terminate(self) -> None:
        if self.process.returncode is None:
            try:
                # The agent runs in its own session: the whole group goes, children included.
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    async def wait(self) -> int | None:
        return await self.process.wait()

    def close_stdin(self) -> None:
        if not self.stdin.is_closing():
            self.stdin.close()


class LocalTransport(Transport):
    async def connect(self) -> None:
        return None

    async def start(self, command: str) -> RemoteProcess:
        process = await asyncio.create_subprocess_shell(
            command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, start_new_session=True, limit=1 << 20)
        return LocalProcess(process)

    async def run(self, command: str, stdin: bytes | None = None, timeout: float | None = None) -> CommandResult:
        process = await asyncio.create_subprocess_shell(
            command, stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True)
        try:
            out, err = await asyncio.wait_for(process.communicate(stdin), timeout)
        except (TimeoutError, asyncio.CancelledError):
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
            raise
        return CommandResult(process.returncode or 0, out, err)

    async def close(self) -> None:
        return None
