"""How a run ends: Ctrl-C handling around the workers, and the exit code Ansible would give."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable

from runner.errors import ExitCode
from runner.executor.pool import WorkerPool


def exit_code_for(*, interrupted: bool, unreachable: bool, failed: bool) -> ExitCode:
    """99 when interrupted, then 4 when a host was unreachable, then 2 when one failed, else 0."""
    if interrupted:
        return ExitCode.INTERRUPTED
    if unreachable:
        return ExitCode.UNREACHABLE
    if failed:
        return ExitCode.HOST_FAILED
    return ExitCode.OK


def run_with_workers(pool: WorkerPool, work: Callable[[], Awaitable[None]]) -> bool:
    """Run ``work`` on an event loop, then close the workers; True when Ctrl-C stopped it.

    On Ctrl-C the work is cancelled and every worker aborts: agents end the processes they started and remove
    their temp files, connections close.
    """
    interrupted = False

    async def main() -> None:
        nonlocal interrupted
        loop = asyncio.get_running_loop()
        current = asyncio.current_task()
        assert current is not None
        loop.add_signal_handler(signal.SIGINT, current.cancel)
        try:
            await work()
        except asyncio.CancelledError:
            interrupted = True
            pool.abort()
            return
        finally:
            loop.remove_signal_handler(signal.SIGINT)
        await pool.close()

    asyncio.run(main())
    return interrupted
