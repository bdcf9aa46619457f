"""Which executor runs the workers, as ``executor = ...`` / ``--executor ...`` spell it, and starting it.

``local`` forks worker processes on this machine (runner.executor.pool). ``ray`` runs them as Ray actors
(runner.executor.ray_pool): ``ray`` alone lets ``ray.init`` find the cluster (``RAY_ADDRESS``, else a cluster
started on this machine with ``ray start``, else a private one for the run), ``ray:auto`` requires a running one,
``ray://HOST:PORT`` names the head's GCS address. Ray is imported only when chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from runner.errors import OptionError
from runner.executor.pool import WorkerContext, WorkerPool
from runner.executor.workers import Workers

EXECUTOR_SPELLINGS = "local, ray, ray:auto or ray://HOST:PORT"

@dataclass(frozen=True)
class ExecutorChoice:
    kind: str = "local"  # "local" or "ray"
    address: str | None = None  # for ray: what ray.init is given (None: its own search; "auto"; "HOST:PORT")

    @property
    def remote(self) -> bool:
        return self.kind == "ray"


LOCAL = ExecutorChoice()


def parse_executor(text: str | None) -> ExecutorChoice:
    """``local``, ``ray``, ``ray:auto``, ``ray://HOST:PORT``; anything else is an OptionError (exit 5)."""
    value = (text or "local").strip()
    if value == "local":
        return LOCAL
    if value == "ray":
        return ExecutorChoice("ray")
    if value == "ray:auto":
        return ExecutorChoice("ray", "auto")
    if value.startswith("ray://"):
        address = value[len("ray://"):].strip("/")
        host, _, port = address.rpartition(":")
        if host and port.isdigit():
            return ExecutorChoice("ray", address)
    raise OptionError(f"executor '{value}' is not one of {EXECUTOR_SPELLINGS}")


def start_workers(choice: ExecutorChoice, hosts: Sequence[str], forks: int, context: WorkerContext, *,
                  shard_of: Callable[[str], str | None] = lambda host: None) -> Workers:
    """Start the chosen executor's workers for ``hosts``; ``shard_of`` gives a host's shard (Ray placement)."""
    if not choice.remote:
        return WorkerPool(hosts, forks, context)
    from runner.executor.ray_pool import RayWorkerPool

    return RayWorkerPool(hosts, forks, context, address=choice.address, shard_of=shard_of)
