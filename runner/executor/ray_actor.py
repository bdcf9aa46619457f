"""One worker of the Ray executor: a Ray async actor around a ``WorkerContext``.

The actor receives its context once, pickled by the controller (a playbook worker travels as its plan's JSON, its
inventory and the run's options, and builds its state on the node), then serves jobs on the actor's event loop as a
forked worker serves them on its own: jobs run concurrently, updates apply in the order they were sent, and a job
runs only after the updates sent before it. The controller sends one call per scheduling round
(runner.executor.ray_rounds): the round's updates, then its jobs, whose replies come back as a stream, a group at a
time as they finish. This module does not import Ray: runner.executor.ray_pool makes the class an actor.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import socket
from collections.abc import AsyncIterator
from typing import Any

from runner.executor.pool import encode_reply, serve_job

# Seconds the actor gives its connections to close at the end of a run; then its agents are stopped instead.
CLOSE_DEADLINE = 10


class WorkerActor:
    def __init__(self, context: bytes):
        # What the controller loaded before starting the actors (the modules' actions, the template environment)
        # is loaded here once too, rather than by the first job of every host.
        import runner.actions  # noqa: F401
        from runner.templating import get_environment

        get_environment()
        self.context = pickle.loads(context)
        self.applied = 0  # updates applied, in the order the controller sent them
        self.waiting: dict[int, bytes] = {}  # updates that came before an earlier one
        self.applied_changed = asyncio.Condition()

    def where(self) -> tuple[str, int]:
        """Where this worker runs (node address, pid): for the -vvvv trace, and a check that it started."""
        return socket.gethostbyname(socket.gethostname()), os.getpid()

    async def serve(self, first_update: int, updates: list[bytes], jobs: list[tuple[int, str, Any]]
                    ) -> AsyncIterator[list[bytes]]:
        """One scheduling round: apply its updates (numbered from ``first_update``, pickled), then run its jobs
        ``(job id, host, payload)`` concurrently, and yield the replies (``encode_reply``) of those that finished
        since the last yield, so each host's result reaches the controller as soon as it is there, and results that
        finish together travel together."""
        await self.update(first_update, updates)
        finished: list[bytes] = []
        some_finished = asyncio.Event()

        async def job(job_id: int, host: str, payload: Any) -> None:
            result, secrets = await serve_job(self.context, host, payload)
            finished.append(encode_reply(job_id, result, secrets))
            some_finished.set()

        running = [asyncio.ensure_future(job(*each)) for each in jobs]  # held here until they end
        left = len(running)
        while left:
            await some_finished.wait()
            some_finished.clear()
            replies = finished[:]
            finished.clear()
            left -= len(replies)
            yield replies

    async def update(self, first_update: int, updates: list[bytes]) -> None:
        """Take updates ``first_update`` on (counted from 0 per actor) and apply every one that follows those
        already applied, whatever order the calls came in; return once these are applied too. Ray does not promise
        an async actor's calls run in the order they were sent, and a round's jobs must see what came before."""
        for offset, message in enumerate(updates):
            self.waiting[first_update + offset] = message
        if self.applied in self.waiting:
            while self.applied in self.waiting:
                self.context.update(pickle.loads(self.waiting.pop(self.applied)))
                self.applied += 1
            async with self.applied_changed:
                self.applied_changed.notify_all()
        last = first_update + len(updates)
        if self.applied < last:
            async with self.applied_changed:
                await self.applied_changed.wait_for(lambda: self.applied >= last)

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.context.close(), CLOSE_DEADLINE)
        except (TimeoutError, Exception):
            self.context.abort()

    def abort(self) -> None:
        self.context.abort()
