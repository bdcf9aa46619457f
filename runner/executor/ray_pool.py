"""The Ray executor: the run's workers as Ray async actors on a cluster's nodes (see docs/scale-out.md).

The controller keeps everything it decides (plan, strategies, batches, handlers, failure policies) and talks to
the actors with the same small messages as to forked workers: a job ``(host, payload)`` is an actor call whose
result the controller awaits on its own loop; an update is an actor call nobody waits for, sent in order with the
jobs. Ray does the scheduling, the transport and the cluster; this module only places hosts (runner.executor.
placement) and maps Ray's failures to the run's: an actor or node that dies makes its hosts' tasks UNREACHABLE, a
cluster that cannot be reached is an error before any host is touched.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import socket
from collections.abc import Callable, Sequence
from typing import Any

from runner.errors import OptionError, UserError
from runner.executor.placement import SHARD_VARIABLE, Placement, place_hosts, shard_resource
from runner.executor.pool import WorkerContext
from runner.executor.ray_actor import WorkerActor
from runner.secrets import censor
from runner.util.logging import DEBUG

_log = logging.getLogger(__name__)

RAY_MISSING = ("the ray executor needs Ray on the controller and on every node: "
               "pip install 'provisioning[ray]'")
# Seconds to wait for the cluster's head to answer, and for the actors to start, before the run gives up.
CONNECT_TIMEOUT = 30
START_TIMEOUT = 120
# Seconds the actors have to close their connections at the end of a run, or to stop their agents when aborted.
STOP_TIMEOUT = 20


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise OptionError(RAY_MISSING) from None
    return ray


class ClusterUnavailable(UserError):
    """The Ray cluster cannot be reached, or cannot run the run's workers: said before any host is touched."""


class RayWorkerPool:
    """Workers as Ray async actors. ``forks`` keeps its meaning, the hosts in flight across the whole cluster."""

    def __init__(self, hosts: Sequence[str], forks: int, context: WorkerContext, *, address: str | None,
                 shard_of: Callable[[str], str | None]):
        self.ray = import_ray()
        self.forks = max(1, forks)
        self.shard_of = shard_of
        # A program that embeds the runner may have joined a cluster itself: its connection is used, and left open.
        self.owns_connection = not self.ray.is_initialized()
        if self.owns_connection:
            _connect(self.ray, address)
        try:
            self.placement = self._place(hosts)
            self.actors = self._start(context)
        except BaseException:
            self._leave()
            raise
        self.updates_sent = [0] * len(self.actors)  # per actor: a job waits there for the updates sent before it
        self._in_flight: asyncio.Semaphore | None = None

    # -- starting ---------------------------------------------------------------------------------------------
    def _place(self, hosts: Sequence[str]) -> Placement:
        nodes = [node for node in self.ray.nodes() if node.get("Alive")]
        offering = {name: sum(1 for node in nodes if node.get("Resources", {}).get(name)) for name in
                    {shard_resource(shard) for shard in {self.shard_of(host) for host in hosts} if shard}}
        missing = sorted(name for name, count in offering.items() if not count)
        if missing:
            raise ClusterUnavailable(
                f"no node of the Ray cluster offers the resource{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)} that the hosts' {SHARD_VARIABLE} asks for; start a node in that network with "
                f"ray start --address HEAD --resources '{{\"{missing[0]}\": 1}}'")

        def workers_for(shard: str | None, count: int) -> int:
            # One actor per node that may run the group: each node's CPU drives its hosts' connections; more
            # actors than forks would only add start-up time, as more processes than CPUs do locally.
            return min(self.forks, len(nodes) if shard is None else offering[shard_resource(shard)])

        return place_hosts(hosts, self.shard_of, workers_for)

    def _start(self, context: WorkerContext) -> list[Any]:
        ray = self.ray
        actor_class = ray.remote(WorkerActor)
        blob = pickle.dumps(context)
        shared = ray.put(blob)  # one copy in the object store, however many actors read it
        actors = []
        for shard in self.placement.slots:
            # Actors need no CPU of their own (their work is waiting on connections), so a node's CPUs never
            # limit how many it holds; a shard's actors need a sliver of its resource, which pins them there.
            options: dict[str, Any] = {"num_cpus": 0, "max_concurrency": max(1000, self.forks * 2),
                                       "max_restarts": 0}
            if shard is None:
                options["scheduling_strategy"] = "SPREAD"
            else:
                options["resources"] = {shard_resource(shard): 0.001}
            actors.append(actor_class.options(**options).remote(shared))
        try:
            where = ray.get([actor.where.remote() for actor in actors], timeout=START_TIMEOUT)
        except Exception as exc:
            for actor in actors:
                ray.kill(actor, no_restart=True)
            raise ClusterUnavailable(f"the Ray cluster did not start the run's workers: {_reason(exc)}") from None
        if _log.isEnabledFor(DEBUG):
            _log.debug("WORKERS started: %d Ray actor%s for %d host%s (forks=%d)", len(actors),
                       "" if len(actors) == 1 else "s", len(self.placement.assignment),
                       "" if len(self.placement.assignment) == 1 else "s", self.forks)
            for index, (node, pid) in enumerate(where):
                held = [host for host, worker in self.placement.assignment.items() if worker == index]
                _log.debug("WORKER actor pid %s on %s (shard %s) holds %s", pid, node,
                           self.placement.slots[index] or "any", ", ".join(held) or "no host yet")
        return actors

    # -- the run ----------------------------------------------------------------------------------------------
    def add_host(self, host: str) -> None:
        if host not in self.placement.assignment:
            worker = self.placement.add_host(host, self.shard_of(host))
            _log.debug("WORKER actor %d now also holds %s", worker, host)

    async def run(self, host: str, payload: Any) -> Any:
        if self._in_flight is None:
            self._in_flight = asyncio.Semaphore(self.forks)
        self.add_host(host)
        index = self.placement.assignment[host]
        actor = self.actors[index]
        async with self._in_flight:
            try:
                result, learned = await actor.handle.remote(host, payload, self.updates_sent[index])
            except self.ray.exceptions.RayError as exc:  # its actor died, or its node; or the call was lost with it
                return _worker_gone(exc)
        censor.remember_all(learned)
        return result

    def broadcast(self, message: Any, *, except_host: str | None = None) -> None:
        skip = self.placement.assignment.get(except_host) if except_host is not None else None
        shared = self.ray.put(message) if len(self.actors) > 2 else message  # one copy for every actor
        for index, actor in enumerate(self.actors):
            if index != skip:
                # Nobody waits for it: a dead actor's update fails alone, and its hosts are reported by run().
                actor.update.remote(self.updates_sent[index], shared)
                self.updates_sent[index] += 1

    async def close(self) -> None:
        _log.debug("WORKERS stopping: %d Ray actor%s", len(self.actors), "" if len(self.actors) == 1 else "s")
        refs = [actor.close.remote() for actor in self.actors]
        await asyncio.get_running_loop().run_in_executor(None, self._finish, refs)

    def abort(self) -> None:
        _log.debug("WORKERS aborting: %d Ray actor%s", len(self.actors), "" if len(self.actors) == 1 else "s")
        self._finish([actor.abort.remote() for actor in self.actors])

    def _finish(self, refs: list[Any]) -> None:
        """Wait (bounded) for the actors' last call, then end them and leave the cluster: a killed actor's SSH
        connections close with its process, and its agents, reading EOF, end what they started."""
        try:
            self.ray.wait(refs, num_returns=len(refs), timeout=STOP_TIMEOUT)
        except Exception:  # an actor already gone: it is ended below all the same
            pass
        for actor in self.actors:
            try:
                self.ray.kill(actor, no_restart=True)
            except Exception:
                pass
        self._leave()

    def _leave(self) -> None:
        if self.owns_connection:
            self.ray.shutdown()


def _connect(ray: Any, address: str | None) -> None:
    """Join the cluster as the run's driver, or say clearly why not (nothing has touched a host yet)."""
    if address not in (None, "auto"):
        host, _, port = address.rpartition(":")
        try:  # Ray retries an unanswered head for a long while: a plain connect says it at once
            socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT).close()
        except OSError as exc:
            raise ClusterUnavailable(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None
    _trace_cluster_messages(ray)
    try:
        # Workers' output stays in Ray's logs: the run's output is the controller's alone, as with local workers.
        ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False, configure_logging=False,
                 include_dashboard=False if address is None else None,
                 runtime_env={"env_vars": _forwarded_environment()})
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError ...
        where = {None: "", "auto": " (ray:auto: no running cluster found)"}.get(address, f" at {address}")
        raise ClusterUnavailable(f"cannot reach the Ray cluster{where}: {_reason(exc)}") from None


def _trace_cluster_messages(ray: Any) -> None:
    """Ray's driver prints the cluster's error messages (a node that died, with its raylet's last log lines) on
    stdout, where they would cut into the run's output and break a JSON report on stdout: they go to the -vvvv
    trace instead, the run reporting the hosts concerned as UNREACHABLE. Ray offers no setting for it, so its
    printer is replaced where this Ray version has it (``ray._private.worker.print_to_stdstream``)."""
    worker = getattr(getattr(ray, "_private", None), "worker", None)
    if worker is not None and hasattr(worker, "print_to_stdstream"):
        worker.print_to_stdstream = _trace_cluster_message


def _trace_cluster_message(data: dict[str, Any], *args: Any, **kwargs: Any) -> None:
    for line in data.get("lines", ()):
        _log.debug("RAY %s: %s", data.get("pid", "cluster"), line)


def _forwarded_environment() -> dict[str, str]:
    """The controller's settings that shape the workers' behaviour (PROVISIONING_*, ANSIBLE_*), as forked workers
    inherit them."""
    return {name: value for name, value in os.environ.items() if name.startswith(("PROVISIONING_", "ANSIBLE_"))}


def _worker_gone(exc: BaseException) -> dict[str, Any]:
    return {"unreachable": True, "changed": False,
            "msg": f"the worker holding this host is gone (its Ray actor or node ended): {_reason(exc)}"}


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
