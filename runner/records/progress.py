"""What a run left behind for ``provisioning-playbook --resume``: which run to resume, and how far each host got.

Plain data, read from the records: the command (``runner.cli.resume``) matches it with the compiled plan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, desc, select

from runner.records.database import NotRecorded, RecordsError
from runner.records.schema import host_results, host_values, play_hosts, plays, runs, tasks

RESUMABLE = ("failed", "unreachable", "interrupted")


@dataclass
class RecordedStep:
    """One result of a host, in the order results came: its play, task and outcome."""

    play_seq: int
    uid: str | None
    changed: bool
    stopped: bool  # failed or unreachable, and not ignored
    is_handler: bool
    name: str


@dataclass
class RunProgress:
    run_id: int
    status: str
    playbook: str
    tasks_hash: str | None
    check_mode: bool
    plays: list[tuple[int, str]] = field(default_factory=list)  # (seq, file:line:col), in the order they ran
    finished: dict[int, set[str]] = field(default_factory=dict)  # play seq -> hosts that finished it
    steps: dict[str, list[RecordedStep]] = field(default_factory=dict)  # host -> its results, in order
    values: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # host -> kind -> name -> value
    hidden: dict[str, list[str]] = field(default_factory=dict)  # host -> names set by a no_log task


def find_run(connection: Connection, playbook: str, run_id: int | None) -> Any:
    """The run to resume: ``run_id``, or the newest finished run of ``playbook``. Refused (a RecordsError) when
    there is none, when it ran another playbook, or when it did not fail."""
    query = select(runs).where(runs.c.kind == "playbook")
    if run_id is not None:
        row = connection.execute(query.where(runs.c.id == run_id)).first()
        if row is None:
            raise NotRecorded(f"run {run_id} is not recorded")
        if row.playbook != playbook:
            raise RecordsError(f"run {run_id} ran {row.playbook or 'no playbook'}, not {playbook}")
    else:
        row = connection.execute(query.where(runs.c.playbook == playbook, runs.c.status != "running")
                                 .order_by(desc(runs.c.id)).limit(1)).first()
        if row is None:
            raise NotRecorded(f"no run of {playbook} is recorded: nothing to resume")
    if row.status not in RESUMABLE:
        raise RecordsError(f"run {row.id} of {playbook} ended {row.status}: only a run that failed, was "
                           "unreachable or was interrupted can be resumed")
    return row


def run_progress(connection: Connection, playbook: str, run_id: int | None) -> RunProgress:
    run = find_run(connection, playbook, run_id)
    progress = RunProgress(run.id, run.status, run.playbook, run.tasks_hash, bool(run.check_mode))
    seq_of: dict[int, int] = {}
    for play in connection.execute(select(plays.c.id, plays.c.seq, plays.c.position)
                                   .where(plays.c.run_id == run.id).order_by(plays.c.seq)):
        seq_of[play.id] = play.seq
        progress.plays.append((play.seq, play.position))
    for done in connection.execute(select(play_hosts).where(play_hosts.c.run_id == run.id)):
        progress.finished.setdefault(seq_of[done.play_id], set()).add(done.host)
    results = select(host_results.c.host, host_results.c.status, host_results.c.changed, host_results.c.ignored,
                     tasks.c.play_id, tasks.c.uid, tasks.c.is_handler, tasks.c.name) \
        .join(tasks, tasks.c.id == host_results.c.task_id) \
        .where(host_results.c.run_id == run.id).order_by(host_results.c.id)
    for row in connection.execute(results):
        if row.play_id not in seq_of:
            continue
        stopped = row.status in ("failed", "unreachable") and not row.ignored
        progress.steps.setdefault(row.host, []).append(
            RecordedStep(seq_of[row.play_id], row.uid, bool(row.changed), stopped, bool(row.is_handler), row.name))
    values = select(host_values).where(host_values.c.run_id == run.id).order_by(host_values.c.id)
    for row in connection.execute(values):  # in the order they were set: the last value of a name wins
        named = progress.values.setdefault(row.host, {}).setdefault(row.kind, {})
        hidden = progress.hidden.setdefault(row.host, [])
        if row.censored:
            for name in row.names:
                named.pop(name, None)
                if name not in hidden:
                    hidden.append(name)
        else:
            named.update(row.value or {})
            hidden[:] = [name for name in hidden if name not in named]
    progress.hidden = {host: names for host, names in progress.hidden.items() if names}
    return progress





@dataclass
class CreatedServer:
    """A server a run's ``server`` task created (it did not exist before), from the task's recorded result."""

    name: str
    provider: str


def servers_created(connection: Connection, run_id: int) -> tuple[Any, list[CreatedServer]]:
    """The run ``run_id`` and the servers it created, in the order they were created. Refused (a RecordsError)
    when the run is not recorded or did not fail."""
    run = connection.execute(select(runs).where(runs.c.id == run_id)).first()
    if run is None:
        raise NotRecorded(f"run {run_id} is not recorded")
    if run.status not in (*RESUMABLE, "error"):
        raise RecordsError(f"run {run_id} {'is still running' if run.status == 'running' else 'ended ' + run.status}"
                           ": only the servers of a run that failed are rolled back")
    created = select(host_results.c.host, host_results.c.result, tasks.c.module) \
        .join(tasks, tasks.c.id == host_results.c.task_id) \
        .where(host_results.c.run_id == run_id).order_by(host_results.c.id)
    servers: list[CreatedServer] = []
    for row in connection.execute(created):
        if row.module.rsplit(".", 1)[-1] != "server" or not isinstance(row.result, dict):
            continue
        looped = row.result.get("results")
        for result in looped if isinstance(looped, list) else [row.result]:  # a looped task: each item's own
            if not isinstance(result, dict) or result.get("created") is not True:
                continue
            recorded = result.get("server")
            server: dict[str, Any] = recorded if isinstance(recorded, dict) else {}
            name = str(server.get("name") or row.host)
            if name not in [known.name for known in servers]:
                servers.append(CreatedServer(name, str(server.get("provider") or "")))
    return run, servers
