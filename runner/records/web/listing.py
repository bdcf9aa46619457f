"""The web API's queries beyond ``provisioning-runs``'s: one page of a run's tasks or results, one result with
its task, the hosts ever recorded, and a running run's progress. Plain data, as ``runner.records.queries``."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, desc, func, select

from runner.records.database import NotRecorded
from runner.records.queries import find_run, iso
from runner.records.schema import host_results, plays, run_files, run_hosts, runs, tasks


def _task(row: Any) -> dict[str, Any]:
    return {"id": row.id, "play_id": row.play_id, "seq": row.seq, "name": row.name, "module": row.module,
            "role": row.role, "file": row.file, "line": row.line, "handler": bool(row.is_handler),
            "started_at": iso(row.started_at)}


def _result(row: Any, *, full: bool) -> dict[str, Any]:
    """A host's result; ``full`` adds the stored result and diff (censored as recorded)."""
    entry = {"id": row.id, "run_id": row.run_id, "task_id": row.task_id, "host": row.host, "status": row.status,
             "changed": bool(row.changed), "ignored": bool(row.ignored), "delegated_to": row.delegated_to,
             "duration": row.duration, "ended_at": iso(row.ended_at),
             "msg": _message(row.result)}
    if full:
        entry.update({"result": row.result, "diff": row.diff})
    return entry


def _message(result: Any) -> str | None:
    if not isinstance(result, dict):
        return None
    message = result.get("msg") or result.get("censored") or result.get("stderr")
    return None if message is None else str(message)


def _page(total: int, items: list[Any], limit: int, offset: int) -> dict[str, Any]:
    return {"total": total, "limit": limit, "offset": offset, "items": items}


def run_plays(connection: Connection, run_id: int) -> list[dict[str, Any]]:
    find_run(connection, run_id)
    return [{"id": play.id, "seq": play.seq, "name": play.name, "pattern": play.pattern,
             "position": play.position, "started_at": iso(play.started_at)}
            for play in connection.execute(select(plays).where(plays.c.run_id == run_id).order_by(plays.c.seq))]


def run_tasks(connection: Connection, run_id: int, *, limit: int, offset: int) -> dict[str, Any]:
    find_run(connection, run_id)
    where = tasks.c.run_id == run_id
    total = connection.execute(select(func.count()).select_from(tasks).where(where)).scalar_one()
    rows = connection.execute(select(tasks).where(where).order_by(tasks.c.seq).limit(limit).offset(offset))
    return _page(total, [_task(row) for row in rows], limit, offset)


def run_results(connection: Connection, run_id: int, *, host: str | None, status: str | None, limit: int,
                offset: int) -> dict[str, Any]:
    """A run's host results in the order they came, with their message but not their whole result."""
    find_run(connection, run_id)
    conditions = [host_results.c.run_id == run_id]
    if host:
        conditions.append(host_results.c.host == host)
    if status:
        conditions.append(host_results.c.status == status)
    total = connection.execute(select(func.count()).select_from(host_results).where(*conditions)).scalar_one()
    rows = connection.execute(select(host_results).where(*conditions).order_by(host_results.c.id)
                              .limit(limit).offset(offset))
    return _page(total, [_result(row, full=False) for row in rows], limit, offset)


def run_hosts_counts(connection: Connection, run_id: int) -> list[dict[str, Any]]:
    find_run(connection, run_id)
    return [{key: value for key, value in row._mapping.items() if key != "run_id"}
            for row in connection.execute(select(run_hosts).where(run_hosts.c.run_id == run_id)
                                          .order_by(run_hosts.c.host))]


def run_files_read(connection: Connection, run_id: int) -> list[dict[str, Any]]:
    """The files a run read, by path and hash: their contents are not served (a vars file may hold a password
    in clear; the records keep it only to compare runs)."""
    find_run(connection, run_id)
    return [{"path": row.path, "kind": row.kind, "sha256": row.sha256}
            for row in connection.execute(select(run_files).where(run_files.c.run_id == run_id)
                                          .order_by(run_files.c.path))]


def one_result(connection: Connection, result_id: int) -> dict[str, Any]:
    """One host result in full (its stored result and diff) with its task."""
    row = connection.execute(select(host_results).where(host_results.c.id == result_id)).first()
    if row is None:
        raise NotRecorded(f"no result {result_id} in the runs database")
    task = connection.execute(select(tasks).where(tasks.c.id == row.task_id)).one()
    return {**_result(row, full=True), "task": _task(task)}


def timeline(connection: Connection, run_id: int) -> dict[str, Any]:
    """A run as a grid: its hosts, and each task (in order, with its play) with each host's result, if any."""
    find_run(connection, run_id)
    play_names = {play.id: play.name
                  for play in connection.execute(select(plays.c.id, plays.c.name).where(plays.c.run_id == run_id))}
    cells: dict[int, dict[str, dict[str, Any]]] = {}
    hosts: dict[str, None] = {}
    for row in connection.execute(select(host_results).where(host_results.c.run_id == run_id)
                                  .order_by(host_results.c.id)):
        hosts.setdefault(row.host)
        # A task that ran twice on a host (a loop is one result) keeps its last: the grid shows the outcome.
        cells.setdefault(row.task_id, {})[row.host] = _result(row, full=False)
    rows = []
    for task in connection.execute(select(tasks).where(tasks.c.run_id == run_id).order_by(tasks.c.seq)):
        rows.append({**_task(task), "play": play_names.get(task.play_id), "results": cells.get(task.id, {})})
    return {"hosts": sorted(hosts), "tasks": rows}


def known_hosts(connection: Connection, *, limit: int, offset: int) -> dict[str, Any]:
    """Every host recorded in some run: how many runs, and its newest run."""
    total = connection.execute(select(func.count(func.distinct(run_hosts.c.host)))).scalar_one()
    newest = func.max(runs.c.started_at)
    rows = connection.execute(
        select(run_hosts.c.host, func.count().label("runs"), newest.label("last_run_at"),
               func.max(run_hosts.c.run_id).label("last_run"))
        .join(runs, runs.c.id == run_hosts.c.run_id).group_by(run_hosts.c.host)
        .order_by(desc(newest), run_hosts.c.host).limit(limit).offset(offset))
    return _page(total, [{"host": row.host, "runs": row.runs, "last_run": row.last_run,
                          "last_run_at": iso(row.last_run_at)} for row in rows], limit, offset)
