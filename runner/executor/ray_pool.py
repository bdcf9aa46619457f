"""The Ray executor: the run's workers as Ray async actors on a cluster's nodes (see docs/scale-out.md).

The controller keeps everything it decides (plan, strategies, batches, handlers, failure policies) and talks to
the actors with the same small messages as to forked workers: jobs ``(host, payload)`` and state updates. What one
scheduling round of the controller's loop sends an actor travels as one actor call (runner.executor.ray_rounds):
the round's updates, then its jobs, whose replies stream back as they finish (a Ray streaming generator), each
resolving its host's job on the controller's loop. Ray does the scheduling, the transport and the cluster; this
module places hosts (runner.executor.placement), sends the rounds, and maps Ray's failures to the run's: an actor
or node that dies makes its hosts' tasks UNREACHABLE, a cluster that cannot be reached is an error before any host
is touched.
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
from runner.executor.ray_rounds import Outbox, Round
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
        self.outbox = Outbox(len(self.actors))
        self._in_flight: asyncio.Semaphore | None = None
        self._sending = False  # a send of the current round is scheduled on the loop
        self._streams: set[asyncio.Task[None]] = set()  # reading the replies of rounds sent

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
        loop = asyncio.get_running_loop()
        async with self._in_flight:
            reply = self.outbox.add_job(self.placement.assignment[host], host, payload, loop)
            self._send_soon(loop)
            result, learned = await reply
        censor.remember_all(learned)
        return result

    def broadcast(self, message: Any, *, except_host: str | None = None) -> None:
        skip = self.placement.assignment.get(except_host) if except_host is not None else None
        blob = pickle.dumps(message)  # once, for every actor
        for index in range(len(self.actors)):
            if index != skip:
                self.outbox.add_update(index, blob)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # before the run's loop (nothing else is queued then): sent at once
            self._send_round()
        else:
            self._send_soon(loop)

    def _send_soon(self, loop: asyncio.AbstractEventLoop) -> None:
        """Send the round once the loop has run everything ready now: every job and update queued in this turn
        (a task's jobs on all the batch's hosts) goes in it."""
        if not self._sending:
            self._sending = True
            loop.call_soon(self._send_round)

    def _send_round(self) -> None:
        self._sending = False
        for index, sent in self.outbox.take().items():
            actor = self.actors[index]
            if _log.isEnabledFor(DEBUG):
                _log.debug("WORKER actor %d: one call, %d job%s, %d update%s", index, len(sent.jobs),
                           "" if len(sent.jobs) == 1 else "s", len(sent.updates), "" if len(sent.updates) == 1 else "s")
            if not sent.jobs:
                # Nobody waits for it: a dead actor's update fails alone, and its hosts are reported by run().
                actor.update.remote(sent.first_update, sent.updates)
                continue
            stream = actor.serve.options(num_returns="streaming").remote(sent.first_update, sent.updates, sent.jobs)
            reading = asyncio.get_running_loop().create_task(self._read_replies(stream, sent))
            self._streams.add(reading)
            reading.add_done_callback(self._streams.discard)

    async def _read_replies(self, stream: Any, sent: Round) -> None:
        """Resolve each job of the round as its reply comes in; when the actor or its node dies, the jobs left
        come back UNREACHABLE."""
        gone: tuple[dict[str, Any], list[str]]
        try:
            async for replies in stream:
                for reply in await replies:
                    job_id, result, learned = pickle.loads(reply)
                    self.outbox.resolve(job_id, (result, learned))
        except self.ray.exceptions.RayError as exc:  # its actor died, or its node; or the call was lost with it
            gone = (_worker_gone(exc), [])
        except Exception as exc:  # a reply that could not be read is its hosts' failure, not a hang
            gone = ({"failed": True, "changed": False, "_internal_error": True,
                     "msg": f"the worker's replies could not be read: {_reason(exc)}"}, [])
        else:
            gone = ({"failed": True, "changed": False, "_internal_error": True,
                     "msg": "the worker ended the round without this host's result"}, [])
        self.outbox.resolve_left([job_id for job_id, _, _ in sent.jobs], gone)

    async def close(self) -> None:
        _log.debug("WORKERS stopping: %d Ray actor%s", len(self.actors), "" if len(self.actors) == 1 else "s")
        self._send_round()  # updates queued by the last results: the actors apply what was sent, as forked workers
        refs = [actor.close.remote() for actor in self.actors]
        await asyncio.get_running_loop().run_in_executor(None, self._finish, refs)

    def abort(self) -> None:
        _log.debug("WORKERS aborting: %d Ray actor%s", len(self.actors), "" if len(self.actors) == 1 else "s")
        for reading in self._streams:
            reading.cancel()
        self.outbox.cancel_all()
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
