"""The executor seam: what the controller needs of its workers, whichever executor runs them.

The controller (a playbook run, an ad-hoc run) starts its workers once with a ``WorkerContext`` (the plan and the
inventory, or the ad-hoc module), then only sends small messages: a job for one host, a state update for every
worker, stop or abort. Two executors implement it: ``local`` (runner.executor.pool, worker processes forked on the
controller, the default) and ``ray`` (runner.executor.ray_pool, Ray async actors on a cluster's nodes). Which one
runs, and where a Ray cluster is, is an ``ExecutorChoice`` (runner.executor.executor_choice).
"""

from __future__ import annotations

from typing import Any, Protocol


class Workers(Protocol):
    """A started pool of workers. Each host is pinned to one worker for the run, which holds its connection."""

    async def run(self, host: str, payload: Any) -> Any:
        """Run one job for ``host`` on its worker and return the context's result (a failed result dict for a bug
        in the worker; an unreachable one when the worker itself is gone)."""
        ...

    def add_host(self, host: str) -> None:
        """Pin a host added during the run (add_host, a created server) to a worker."""
        ...

    def broadcast(self, message: Any, *, except_host: str | None = None) -> None:
        """Send a state update to every worker (not to ``except_host``'s own, which produced it), in order with
        the jobs sent after it."""
        ...

    async def close(self) -> None:
        """The run is over: every worker closes its connections and ends."""
        ...

    def abort(self) -> None:
        """Interrupted: every worker stops its agents now and ends; returns once they have, or were ended."""
        ...
