"""The Ray executor's rounds without a cluster: what the controller gathers per actor and round
(runner.executor.ray_rounds), and how an actor serves a round (runner.executor.ray_actor.WorkerActor, a plain class
until Ray makes it an actor): updates applied in the order they were sent whatever order the calls came in, a
round's jobs run only after the updates sent before them, replies streamed as the jobs finish."""

from __future__ import annotations

import asyncio
import pickle
from typing import Any

from runner.executor.ray_actor import WorkerActor
from runner.executor.ray_rounds import Outbox

# The hosts whose jobs wait for ``released`` before answering (a slow host).
SLOW = "slow"


class Recording:
    """A worker context that records the updates it applied and answers each job with what it had seen."""

    def __init__(self) -> None:
        self.applied: list[Any] = []
        self.released: asyncio.Event | None = None

    async def handle(self, host: str, payload: Any) -> Any:
        if host == SLOW:
            assert self.released is not None
            await self.released.wait()
        return {"host": host, "payload": payload, "seen": list(self.applied)}

    def update(self, message: Any) -> None:
        self.applied.append(message)

    async def close(self) -> None:
        return None

    def abort(self) -> None:
        return None


def _actor() -> WorkerActor:
    return WorkerActor(pickle.dumps(Recording()))


def _decode(replies: list[bytes]) -> list[tuple[int, Any]]:
    return [(job_id, result) for job_id, result, _ in map(pickle.loads, replies)]


async def _collect(stream: Any) -> list[list[tuple[int, Any]]]:
    return [_decode(replies) async for replies in stream]


def test_a_round_applies_its_updates_then_streams_each_reply_as_its_job_finishes() -> None:
    actor = _actor()

    async def scenario() -> list[list[tuple[int, Any]]]:
        actor.context.released = asyncio.Event()
        stream = actor.serve(0, [pickle.dumps("facts of a")], [(0, "a", 1), (1, SLOW, 2), (2, "b", 3)])
        first = _decode(await stream.__anext__())  # the fast hosts' replies, while the slow one still works
        actor.context.released.set()
        return [first, *await _collect(stream)]

    groups = asyncio.run(scenario())
    assert groups[0] == [(0, {"host": "a", "payload": 1, "seen": ["facts of a"]}),
                         (2, {"host": "b", "payload": 3, "seen": ["facts of a"]})]
    assert groups[1:] == [[(1, {"host": SLOW, "payload": 2, "seen": ["facts of a"]})]]


def test_updates_apply_in_the_order_sent_whatever_order_the_calls_arrive_in() -> None:
    actor = _actor()

    async def scenario() -> list[list[tuple[int, Any]]]:
        # Round 2's call (updates 2 and 3, and a job) arrives before round 1's update-only call (updates 0, 1).
        later = asyncio.ensure_future(_collect(actor.serve(2, [pickle.dumps("u2"), pickle.dumps("u3")],
                                                           [(7, "a", None)])))
        await asyncio.sleep(0)
        assert not later.done() and actor.context.applied == []  # the job waits for the updates sent before it
        await actor.update(0, [pickle.dumps("u0"), pickle.dumps("u1")])
        return await later

    assert asyncio.run(scenario()) == [[(7, {"host": "a", "payload": None, "seen": ["u0", "u1", "u2", "u3"]})]]
    assert actor.applied == 4 and not actor.waiting


def test_a_round_without_updates_waits_for_those_queued_in_earlier_rounds() -> None:
    actor = _actor()

    async def scenario() -> list[list[tuple[int, Any]]]:
        waiting = asyncio.ensure_future(_collect(actor.serve(1, [], [(0, "a", None)])))
        await asyncio.sleep(0)
        assert not waiting.done()
        await actor.update(0, [pickle.dumps("u0")])
        return await waiting

    assert asyncio.run(scenario()) == [[(0, {"host": "a", "payload": None, "seen": ["u0"]})]]


class Unpicklable(Recording):
    """Host 'bad' answers with something that cannot travel between processes."""

    async def handle(self, host: str, payload: Any) -> Any:
        return {"value": lambda: None} if host == "bad" else await super().handle(host, payload)


def test_a_reply_that_cannot_travel_fails_its_host_only() -> None:
    actor = WorkerActor(pickle.dumps(Unpicklable()))
    replies = dict(pair for group in asyncio.run(_collect(actor.serve(0, [], [(0, "bad", None), (1, "a", None)])))
                   for pair in group)
    assert replies[0]["failed"] is True and "cannot be sent to the controller" in replies[0]["msg"]
    assert replies[1]["host"] == "a"


def test_the_outbox_numbers_updates_per_actor_across_rounds_and_keeps_jobs_after_them() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        outbox = Outbox(2)
        outbox.add_update(0, b"u0")
        outbox.add_update(1, b"u0")
        first = outbox.add_job(0, "a", "task 1", loop)
        outbox.add_update(0, b"u1")
        round_one = outbox.take()
        assert round_one[0].first_update == 0 and round_one[0].updates == [b"u0", b"u1"]
        assert [host for _, host, _ in round_one[0].jobs] == ["a"]
        assert round_one[1].updates == [b"u0"] and round_one[1].jobs == []
        outbox.add_update(0, b"u2")
        second = outbox.add_job(1, "b", "task 1", loop)
        round_two = outbox.take()
        assert round_two[0].first_update == 2 and round_two[1].first_update == 1
        assert outbox.take() == {}
        job_a, job_b = round_one[0].jobs[0][0], round_two[1].jobs[0][0]
        outbox.resolve(job_a, "done")
        outbox.resolve_left([job_a, job_b], "gone")  # only what is still awaited
        assert (await first, await second) == ("done", "gone")
        assert outbox.awaited == {}

    asyncio.run(scenario())
