"""What the Ray executor's controller sends each actor, gathered per scheduling round (see docs/scale-out.md).

A round is what the controller's event loop does between two turns: under the linear strategy, starting a task on
every host of the batch; under free, starting the next task of every host whose result just came in. Every job
and update meant for one actor in that round travels as ONE actor call (``WorkerActor.serve``: the updates first,
then the jobs), instead of one call per host-job and one per update per actor, which is what Ray's per-call cost
is paid for. Updates are numbered per actor as they are queued, so an actor applies them in the order they were
sent whichever of its calls arrives first, and runs a round's jobs only once every update queued before them is
applied. Pure bookkeeping, no Ray: runner.executor.ray_pool sends the rounds.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Round:
    """One actor's share of a round: the updates numbered ``first_update`` on (pickled once for every actor), and
    the jobs ``(job id, host, payload)``."""

    first_update: int
    updates: list[bytes] = field(default_factory=list)
    jobs: list[tuple[int, str, Any]] = field(default_factory=list)


class Outbox:
    """The current round's jobs and updates per actor, and the results the controller awaits, by job id."""

    def __init__(self, actors: int):
        self.updates_numbered = [0] * actors  # per actor: updates given a number, sent or queued
        self.rounds: dict[int, Round] = {}
        self.awaited: dict[int, asyncio.Future[Any]] = {}  # job id -> its result
        self._ids = itertools.count()

    def _round(self, actor: int) -> Round:
        current = self.rounds.get(actor)
        if current is None:
            current = self.rounds[actor] = Round(self.updates_numbered[actor])
        return current

    def add_update(self, actor: int, message: bytes) -> None:
        self._round(actor).updates.append(message)
        self.updates_numbered[actor] += 1

    def add_job(self, actor: int, host: str, payload: Any, loop: asyncio.AbstractEventLoop) -> asyncio.Future[Any]:
        """Queue a job for the round; the future is resolved by ``resolve`` with its reply."""
        job_id = next(self._ids)
        future: asyncio.Future[Any] = loop.create_future()
        self.awaited[job_id] = future
        self._round(actor).jobs.append((job_id, host, payload))
        return future

    def take(self) -> dict[int, Round]:
        """The round's calls, per actor, and a new round begun."""
        rounds, self.rounds = self.rounds, {}
        return rounds

    def resolve(self, job_id: int, reply: Any) -> None:
        future = self.awaited.pop(job_id, None)
        if future is not None and not future.done():
            future.set_result(reply)

    def resolve_left(self, job_ids: list[int], reply: Any) -> None:
        """Every job of ``job_ids`` still awaited gets ``reply`` (its actor, or its node, is gone)."""
        for job_id in job_ids:
            self.resolve(job_id, reply)

    def cancel_all(self) -> None:
        for future in self.awaited.values():
            if not future.done():
                future.cancel()
        self.awaited.clear()
