"""Persistent forked workers, started once per run.

Each host is pinned to one worker (round robin), so its connection, its agents and any state kept for it live in
one process for the whole run. The controller sends small messages — ``(job id, host, payload)`` — and the
worker's ``WorkerContext`` (inherited through fork, with the inventory and plan already loaded) turns them into
work. A worker runs the jobs it is given concurrently on its asyncio loop, one connection per host.

Workers end with their controller, and take with them what they started. Each leads a session of its own, as
ansible-core's workers do (``runner.util.process_group``): a terminal's signals reach only the controller, which
decides, and the processes a worker starts on the controller (a ``pipe`` lookup's command, an Ansible plugin's
subprocess) share its process group. Ctrl-C, SIGTERM and SIGHUP go to the controller, which tells each worker to
abort, over its channel and with SIGTERM (a signal reaches a worker whose loop is held up by a command it waits
for): the worker SIGTERMs its process group at once, stops its agents (which end the processes they started and
remove their temp files), and before exiting SIGKILLs whatever of its group is still there. A controller that ends
without a word (SIGKILL, a crash) closes its end of every worker's channel, and Linux sends each worker SIGTERM
(``PR_SET_PDEATHSIG``): either one makes the worker abort the same way, within ``ABORT_DEADLINE`` seconds.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import time
import traceback
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any, Protocol

from runner.secrets import censor
from runner.util.heap import release_collection, thaw_collection
from runner.util.logging import DEBUG, milliseconds
from runner.util.parent_death import die_with_parent
from runner.util.process_group import end_own_group, lead_own_session, signal_own_group

_log = logging.getLogger(__name__)


class WorkerContext(Protocol):
    """What a worker runs. Built by the controller before the fork; each worker holds its own copy."""

    async def handle(self, host: str, payload: Any) -> Any:
        """Do one job for one host and return its result, picklable (a ``TaskResult`` for a playbook task, a result
        dict for an ad-hoc command); never raise for host trouble: report it."""
        ...

    def update(self, message: Any) -> None:
        """Apply a state update broadcast by the controller (facts, registered results of other hosts)."""
        ...

    async def close(self) -> None:
        """Close every connection this worker holds."""
        ...

    def abort(self) -> None:
        """Interrupted: stop remote agents now."""
        ...


async def serve_job(context: WorkerContext, host: str, payload: Any) -> tuple[Any, Any]:
    """Run one job on a worker: its result (a failed result dict when the context raised, which is a bug) and the
    secrets the worker decrypted meanwhile, which go with the result so the controller's output hides them too."""
    try:
        result = await context.handle(host, payload)
    except Exception as exc:  # a bug: report it as this host's failure rather than killing the worker
        result = {"failed": True, "msg": f"internal error: {type(exc).__name__}: {exc}",
                  "exception": traceback.format_exc(), "_internal_error": True}
    return result, censor.take_new()


def encode_reply(job_id: int, result: Any, secrets: Any) -> bytes:
    """A job's reply as it travels to the controller, pickled: ``(job id, result, secrets)``. A result that cannot
    travel (a lambda a filter returned) becomes the host's failure, not a reply that never comes and a run that
    waits for it forever."""
    try:
        return pickle.dumps((job_id, result, secrets))
    except Exception as exc:
        return pickle.dumps((job_id, {
            "failed": True, "changed": False, "_internal_error": True,
            "msg": f"the task's result cannot be sent to the controller: {type(exc).__name__}: {exc}"}, secrets))


_STOP = "stop"
_ABORT = "abort"
_JOB = "job"
_UPDATE = "update"

# Seconds a worker told to stop (SIGTERM, or its controller gone) has to stop its agents and close its connections;
# then it ends anyway, with its process group, as its event loop may be held up by the very work it is abandoning.
ABORT_DEADLINE = 15
# Seconds the processes an aborted worker started have, after its SIGTERM, to end before the group gets SIGKILL.
STOP_GRACE = 5
STOPPING_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def _worker_main(conn: Connection, context: WorkerContext, controller_pid: int,
                 controller_ends: list[Connection]) -> None:
    # The controller's handlers are not the worker's: until its loop handles the stopping signals, SIGTERM simply
    # ends it (it holds no connection and has started nothing yet). SIGINT and SIGHUP are ignored until the worker
    # leaves the terminal's process group, which a terminal sends them to: the controller decides.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    if not die_with_parent(controller_pid, signal.SIGTERM):
        os._exit(0)  # the controller ended while this worker was being forked: nothing to serve
    lead_own_session()
    # The controller's ends of the channels (this worker's and the earlier workers'), inherited through the fork:
    # held open here, they would keep a channel from ever reading as closed when the controller is gone.
    for end in controller_ends:
        end.close()
    censor.take_new()  # the controller's own are known to it already
    profile_dir = os.environ.get("PROVISIONING_PROFILE_DIR")
    if profile_dir:  # performance work: each worker writes its cProfile stats there (see bench/README.md)
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU time: what a busy machine does not distort
        profiler.runcall(_run_until_served, conn, context)
        profiler.dump_stats(os.path.join(profile_dir, f"worker-{os.getpid()}.prof"))
    else:
        _run_until_served(conn, context)
    os._exit(0)  # skip inherited atexit handlers and finalizers of the controller


def _run_until_served(conn: Connection, context: WorkerContext) -> None:
    """Serve on a new event loop, and leave the loop as it is when done: the worker exits next, and its
    connections are already closed, so asyncio.run's teardown (cancelling leftovers, joining the resolver's
    threads) would only add time to the end of every run."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    loop.run_until_complete(_serve(conn, context))


async def _serve(conn: Connection, context: WorkerContext) -> None:
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    tasks: set[asyncio.Task[None]] = set()
    aborted = False
    # Replies are written by a thread of their own, one at a time: a reply written from the loop would block it
    # while the pipe is full, and the controller, itself blocked sending jobs to this worker (thousands of hosts
    # in flight), would never read it. The loop must always be free to read.
    replies = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replies")

    async def run_job(job_id: int, host: str, payload: Any) -> None:
        result, secrets = await serve_job(context, host, payload)
        if aborted:
            return
        replies.submit(_send_reply, conn, encode_reply(job_id, result, secrets))

    group_stopped = False

    def stop_group() -> None:
        # Once: the worker's own handler gets the SIGTERM it sends to its group, and must not send it again.
        nonlocal group_stopped
        if not group_stopped:
            group_stopped = True
            signal.alarm(ABORT_DEADLINE)
            signal_own_group(signal.SIGTERM)

    def abort() -> None:
        nonlocal aborted
        if aborted:
            return
        aborted = True
        stop_group()
        loop.remove_reader(conn.fileno())
        context.abort()
        for task in tasks:
            task.cancel()
        done.set()

    def on_terminate(signum: int, frame: Any) -> None:
        # A plain handler, not the loop's: it runs even while the loop is held up by a command the worker waits
        # for (a lookup's), which the SIGTERM to the group ends; the alarm bounds the rest of the abort.
        stop_group()
        loop.call_soon_threadsafe(abort)

    def on_deadline(signum: int, frame: Any) -> None:
        signal_own_group(signal.SIGKILL)  # the worker and all it started: the abort is held up past its bound

    signal.signal(signal.SIGALRM, on_deadline)
    # A handler, not SIG_IGN, for SIGINT and SIGHUP too: the commands the worker starts then begin with these
    # signals at their defaults (an ignored signal stays ignored across exec), and a worker sent one aborts.
    for signum in STOPPING_SIGNALS:
        signal.signal(signum, on_terminate)

    def on_message() -> None:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            message = (_ABORT,)  # the controller has gone
        kind = message[0]
        if kind == _JOB:
            task = loop.create_task(run_job(*message[1:]))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        elif kind == _UPDATE:
            context.update(message[1])
        elif kind == _ABORT:
            abort()
        elif kind == _STOP:
            loop.remove_reader(conn.fileno())
            done.set()

    loop.add_reader(conn.fileno(), on_message)
    await done.wait()
    if tasks and not aborted:
        await asyncio.gather(*tasks, return_exceptions=True)
    try:
        await asyncio.wait_for(context.close(), 10)
    except (TimeoutError, Exception):
        context.abort()
    replies.shutdown(wait=not aborted)  # after a stop, the controller reads every reply; after an abort, none
    conn.close()
    if aborted:  # what the worker started on the controller ends before it does; after a stop, it stays
        end_own_group(STOP_GRACE)


def _send_reply(conn: Connection, message: bytes) -> None:
    try:
        conn.send_bytes(message)
    except (BrokenPipeError, OSError):
        pass  # the controller has gone: the worker aborts on reading EOF


def _kill_worker(process: multiprocessing.process.BaseProcess) -> None:
    """SIGKILL to a worker still alive (not reaped, so its pid is still its own) and to its process group, which it
    leads: what it started goes with it. A worker killed before it left the controller's group has none."""
    assert process.pid is not None
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        process.kill()


class WorkerPool:
    """The local executor (runner.executor.workers): worker processes forked before the controller's loop runs;
    at most ``forks`` hosts work at once.

    ``forks`` keeps Ansible's meaning, the hosts in flight. Processes are fewer: one per CPU at most (and never
    more than hosts), since each worker runs its hosts concurrently on its event loop; more processes than CPUs
    only add start-up time and memory.
    """

    def __init__(self, hosts: Sequence[str], forks: int, context: WorkerContext):
        self.forks = max(1, forks)
        count = max(1, min(self.forks, len(hosts) or 1, os.cpu_count() or 1))
        release_collection()  # the plan and inventory stay for the run: frozen before the workers share them
        self._mp = multiprocessing.get_context("fork")
        self.connections: list[Connection] = []
        self.processes: list[multiprocessing.process.BaseProcess] = []
        controller_pid = os.getpid()
        for _ in range(count):
            parent_end, child_end = self._mp.Pipe(duplex=True)
            process = self._mp.Process(target=_worker_main, daemon=True,
                                       args=(child_end, context, controller_pid, [*self.connections, parent_end]))
            process.start()
            child_end.close()
            self.connections.append(parent_end)
            self.processes.append(process)
        self.assignment = {host: index % count for index, host in enumerate(hosts)}
        if _log.isEnabledFor(DEBUG):
            _log.debug("WORKERS started: %d process%s for %d host%s (forks=%d)", count, "" if count == 1 else "es",
                       len(hosts), "" if len(hosts) == 1 else "s", self.forks)
            for index, started in enumerate(self.processes):
                held = [host for host, worker in self.assignment.items() if worker == index]
                _log.debug("WORKER pid %s holds %s", started.pid, ", ".join(held) or "no host yet")
        self._ids = itertools.count()
        self._pending: dict[int, tuple[int, asyncio.Future[dict[str, Any]]]] = {}  # job -> (worker, result)
        self._loop: asyncio.AbstractEventLoop | None = None

    def _attach(self) -> None:
        if self._loop is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._in_flight = asyncio.Semaphore(self.forks)
        for conn in self.connections:
            self._loop.add_reader(conn.fileno(), self._on_reply, conn)

    def _on_reply(self, conn: Connection) -> None:
        try:
            job_id, result, learned = conn.recv()
        except (EOFError, OSError):
            assert self._loop is not None
            self._loop.remove_reader(conn.fileno())
            self._fail_pending(self.connections.index(conn))
            return
        censor.remember_all(learned)
        _, future = self._pending.pop(job_id, (None, None))
        if future is not None and not future.done():
            future.set_result(result)

    def _fail_pending(self, worker: int) -> None:
        for job_id, (owner, future) in list(self._pending.items()):
            if owner == worker:
                del self._pending[job_id]
                if not future.done():
                    future.set_result({"failed": True, "msg": "worker process ended unexpectedly"})

    def add_host(self, host: str) -> None:
        """A host added during the run (add_host, a created server) goes to the least loaded worker."""
        if host not in self.assignment:
            loads = [0] * len(self.connections)
            for worker in self.assignment.values():
                loads[worker] += 1
            self.assignment[host] = loads.index(min(loads))
            if _log.isEnabledFor(DEBUG):
                _log.debug("WORKER pid %s now also holds %s", self.processes[self.assignment[host]].pid, host)

    async def run(self, host: str, payload: Any) -> Any:
        """Run one job for ``host`` on its worker and wait for the result: what the context's ``handle`` returned,
        or a failed result dict when it raised (a bug)."""
        self._attach()
        self.add_host(host)
        assert self._loop is not None
        async with self._in_flight:
            job_id = next(self._ids)
            future: asyncio.Future[dict[str, Any]] = self._loop.create_future()
            worker = self.assignment[host]
            self._pending[job_id] = (worker, future)
            self.connections[worker].send((_JOB, job_id, host, payload))
            return await future

    def broadcast(self, message: Any, *, except_host: str | None = None) -> None:
        """Send a state update to every worker; ``except_host``: not to that host's own worker, which produced
        the update itself (registered results and facts can be large, and are sent after every task)."""
        skip = self.assignment.get(except_host) if except_host is not None else None
        for index, conn in enumerate(self.connections):
            if index != skip:
                conn.send((_UPDATE, message))

    async def close(self) -> None:
        _log.debug("WORKERS stopping: %d process%s", len(self.processes), "" if len(self.processes) == 1 else "es")
        for conn in self.connections:
            try:
                conn.send((_STOP,))
            except (BrokenPipeError, OSError):
                pass
        await asyncio.get_running_loop().run_in_executor(None, self._join, 15.0)
        self._detach()

    def abort(self) -> None:
        """Ctrl-C: every worker ends what it started, stops its agents and exits; the controller waits for them,
        briefly. Told twice: over its channel, and with SIGTERM, which reaches a worker whose loop is held up (a
        lookup's command it waits for), as ansible-core signals its workers."""
        _log.debug("WORKERS aborting: %d process%s", len(self.processes), "" if len(self.processes) == 1 else "es")
        for conn in self.connections:
            try:
                conn.send((_ABORT,))
            except (BrokenPipeError, OSError):
                pass
        for process in self.processes:
            if process.is_alive() and process.pid is not None:  # not reaped: its pid is still this worker's
                os.kill(process.pid, signal.SIGTERM)
        self._join(10.0)
        self._detach()

    def _join(self, timeout: float) -> None:
        started = time.perf_counter()
        for process in self.processes:
            process.join(timeout)
            if process.is_alive():
                _log.debug("WORKER pid %s did not end within %.0f s: killed", process.pid, timeout)
                _kill_worker(process)
                process.join(1)
            if _log.isEnabledFor(DEBUG):
                _log.debug("WORKER pid %s ended (exit code %s), %s after the stop", process.pid, process.exitcode,
                           milliseconds(time.perf_counter() - started))

    def _detach(self) -> None:
        thaw_collection()
        if self._loop is not None and not self._loop.is_closed():
            for conn in self.connections:
                try:
                    self._loop.remove_reader(conn.fileno())
                except (ValueError, OSError):
                    pass
        for conn in self.connections:
            conn.close()
        for _, future in self._pending.values():
            if not future.done():
                future.cancel()
        self._pending.clear()
