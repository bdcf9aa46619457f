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
