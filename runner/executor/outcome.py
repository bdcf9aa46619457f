"""How a run ends: stopping signals (Ctrl-C, SIGTERM, SIGHUP) around the workers, and the exit code Ansible would
give."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable

from runner.callbacks.log_file import print_error
from runner.errors import ExitCode
from runner.executor.workers import Workers
from runner.util.termination import exit_code_for_signal, stop_message, watched_signals


def exit_code_for(*, stopped_by: int | None, unreachable: bool, failed: bool) -> int:
    """When a signal stopped the run, its code (99 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP); then 4 when a
    host was unreachable, 2 when one failed, else 0."""
    if stopped_by is not None:
        return exit_code_for_signal(stopped_by)
    if unreachable:
        return ExitCode.UNREACHABLE
    if failed:
        return ExitCode.HOST_FAILED
    return ExitCode.OK


def run_with_workers(pool: Workers, work: Callable[[], Awaitable[None]]) -> int | None:
    """Run ``work`` on an event loop, then close the workers; returns the signal that stopped it, if one did.

    On Ctrl-C, SIGTERM or SIGHUP the work is cancelled and every worker aborts: agents end the processes they
    started and remove their temp files, connections close. A second signal during that clean-up is ignored
    rather than cutting it short.
    """
    stopped_by: int | None = None

    async def main() -> None:
        nonlocal stopped_by
        loop = asyncio.get_running_loop()
        current = asyncio.current_task()
        assert current is not None

        def stop(signum: int) -> None:
            nonlocal stopped_by
            if stopped_by is None:
                stopped_by = signum
                current.cancel()

        watched = watched_signals()
        previous = {signum: signal.getsignal(signum) for signum in watched}
        for signum in watched:
            loop.add_signal_handler(signum, stop, signum)
        try:
            await work()
        except asyncio.CancelledError:
            if stopped_by is None:
                raise
            print_error(stop_message(stopped_by))
            pool.abort()
            return
        finally:
            for signum in watched:
                loop.remove_signal_handler(signum)
                signal.signal(signum, previous[signum])  # the loop leaves the default action behind
        await pool.close()

    asyncio.run(main())
    return stopped_by
