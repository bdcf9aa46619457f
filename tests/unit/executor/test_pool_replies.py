"""A worker's reply that cannot be pickled (a lambda a filter returned) is its host's failure: the controller gets
an answer instead of waiting forever, and the worker goes on serving its other hosts."""

from __future__ import annotations

from typing import Any

from runner.executor.outcome import run_with_workers
from runner.executor.pool import WorkerPool


class Replies:
    """A worker context whose host 'bad' answers with something that cannot travel between processes."""

    async def handle(self, host: str, payload: Any) -> Any:
        if host == "bad":
            return {"changed": False, "value": lambda: None}
        return {"changed": False, "msg": f"{host} fine"}

    def update(self, message: Any) -> None:
        return None

    async def close(self) -> None:
        return None

    def abort(self) -> None:
        return None


def test_an_unpicklable_result_fails_its_host_and_the_run_goes_on() -> None:
    hosts = ["good", "bad", "also-good"]
    pool = WorkerPool(hosts, 1, Replies())
    results: dict[str, Any] = {}

    async def work() -> None:
        for _ in range(2):  # the worker still serves after the bad reply
            for host in hosts:
                results[host] = await pool.run(host, None)

    assert run_with_workers(pool, work) is None
    assert results["good"] == {"changed": False, "msg": "good fine"}
    assert results["also-good"] == {"changed": False, "msg": "also-good fine"}
    bad = results["bad"]
    assert bad["failed"] is True and "cannot be sent to the controller" in bad["msg"], bad


class Bulky(Replies):
    """Every host answers with more than a pipe holds, so replies queue while jobs are still being sent."""

    async def handle(self, host: str, payload: Any) -> Any:
        return {"changed": False, "msg": host, "padding": "x" * 20_000}


def test_thousands_of_hosts_in_flight_with_large_replies_do_not_deadlock_the_pipes() -> None:
    import signal

    hosts = [f"h{number}" for number in range(2000)]
    pool = WorkerPool(hosts, len(hosts), Bulky())
    results: dict[str, Any] = {}

    async def one(host: str) -> None:
        results[host] = await pool.run(host, None)

    async def work() -> None:
        import asyncio

        await asyncio.gather(*(one(host) for host in hosts))

    def hung(signum: int, frame: Any) -> None:
        raise AssertionError("the controller and its workers are each blocked writing to the other")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)  # a bound on a hang, not a timing: the run takes seconds
    try:
        assert run_with_workers(pool, work) is None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert sorted(result["msg"] for result in results.values()) == sorted(hosts)
