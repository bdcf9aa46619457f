"""One worker of the Ray executor: a Ray async actor around a ``WorkerContext``.

The actor receives its context once, pickled by the controller (a playbook worker travels as its plan's JSON, its
inventory and the run's options, and builds its state on the node), then serves jobs on the actor's event loop as a
forked worker serves them on its own: jobs run concurrently, updates apply in the order they were sent, and a job
runs only after the updates sent before it. This module
does not import Ray: runner.executor.ray_pool makes the class an actor.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import socket
from typing import Any

from runner.executor.pool import serve_job

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
        self.waiting: dict[int, Any] = {}  # updates that came before an earlier one
        self.applied_changed = asyncio.Condition()

    def where(self) -> tuple[str, int]:
        """Where this worker runs (node address, pid): for the -vvvv trace, and a check that it started."""
        return socket.gethostbyname(socket.gethostname()), os.getpid()

    async def handle(self, host: str, payload: Any, updates_before: int) -> tuple[Any, list[str]]:
        """Run a job once the ``updates_before`` updates the controller sent ahead of it are applied: Ray does not
        promise an async actor's calls run in the order they were sent, and the job must see what they say."""
        if self.applied < updates_before:
            async with self.applied_changed:
                await self.applied_changed.wait_for(lambda: self.applied >= updates_before)
        return await serve_job(self.context, host, payload)

    async def update(self, number: int, message: Any) -> None:
        """Apply update ``number`` (counted from 0 per actor) after every earlier one, whatever order they came
        in."""
        self.waiting[number] = message
        while self.applied in self.waiting:
            self.context.update(self.waiting.pop(self.applied))
            self.applied += 1
        async with self.applied_changed:
            self.applied_changed.notify_all()

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.context.close(), CLOSE_DEADLINE)
        except (TimeoutError, Exception):
            self.context.abort()

    def abort(self) -> None:
        self.context.abort()
