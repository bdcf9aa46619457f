"""What ``provisioning-runs`` reads: runs listed and filtered, one run in full, a host's history, two runs
compared, old runs pruned. Every answer is plain data (dicts, lists, ISO times), for a table or for JSON."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, case, delete, desc, exists, func, or_, select, update

from runner.records.database import NotRecorded, RecordsError
from runner.records.schema import (
    files,
    host_facts,
    host_results,
    host_values,
    play_hosts,
    plays,
    run_files,
    run_hosts,
    runs,
    tasks,
)

COUNTS = ("ok", "changed", "unreachable", "failed", "skipped", "rescued", "ignored")
SLOWEST = 10


def as_utc(moment: datetime | None) -> datetime | None:
    """SQLite gives back the UTC times it was given without their zone; PostgreSQL with it."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def iso(moment: datetime | None) -> str | None:
    moment = as_utc(moment)
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _seconds(start: datetime | None, end: datetime | None) -> float | None:
    start, end = as_utc(start), as_utc(end)
    return round((end - start).total_seconds(), 3) if start and end else None


def run_summary(row: Any) -> dict[str, Any]:
    return {"id": row.id, "kind": row.kind, "status": row.status, "playbook": row.playbook,
            "started_at": iso(row.started_at), "ended_at": iso(row.ended_at),
            "duration": _seconds(row.started_at, row.ended_at), "exit_code": row.exit_code, "user": row.user,
            "controller": row.controller, "check_mode": bool(row.check_mode)}


def find_run(connection: Connection, run_id: int) -> Any:
    row = connection.execute(select(runs).where(runs.c.id == run_id)).first()
    if row is None:
        raise NotRecorded(f"no run {run_id} in the runs database")
    return row


def _playbook_matches(playbook: str) -> Any:
    """A playbook named as recorded (its full path), or by a trailing part of it (``site.yml``)."""
    escaped = playbook.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return or_(runs.c.playbook == playbook, runs.c.playbook.like(f"%/{escaped}", escape="\\"))


# -- list ---------------------------------------------------------------------------------------------------
def _run_filters(playbook: str | None, host: str | None, status: str | None, since: datetime | None) -> list[Any]:
    conditions = []
    if playbook:
        conditions.append(_playbook_matches(playbook))
    if host:
        conditions.append(exists().where(and_(run_hosts.c.run_id == runs.c.id, run_hosts.c.host == host)))
    if status:
        conditions.append(runs.c.status == status)
    if since:
        conditions.append(runs.c.started_at >= since)
    return conditions


def list_runs(connection: Connection, *, playbook: str | None = None, host: str | None = None,
              status: str | None = None, since: datetime | None = None, limit: int = 20,
              offset: int = 0) -> list[dict[str, Any]]:
    """The newest runs first (skipping ``offset`` of them), with their host counts."""
    query = (select(runs).where(*_run_filters(playbook, host, status, since))
             .order_by(desc(runs.c.started_at), desc(runs.c.id)).limit(limit).offset(offset))
    found = [run_summary(row) for row in connection.execute(query)]
    totals = _host_totals(connection, [run["id"] for run in found])
    for run in found:
        run.update(totals.get(run["id"], {"hosts": 0, "changed": 0, "failed_hosts": 0}))
    return found


def count_runs(connection: Connection, *, playbook: str | None = None, host: str | None = None,
               status: str | None = None, since: datetime | None = None) -> int:
    """How many runs ``list_runs`` would list with these filters and no limit."""
    query = select(func.count()).select_from(runs).where(*_run_filters(playbook, host, status, since))
    return int(connection.execute(query).scalar_one())


def _host_totals(connection: Connection, run_ids: list[int]) -> dict[int, dict[str, int]]:
    if not run_ids:
        return {}
    failed = func.sum(case((or_(run_hosts.c.failed > 0, run_hosts.c.unreachable > 0), 1), else_=0))
    rows = connection.execute(
        select(run_hosts.c.run_id, func.count(), func.sum(run_hosts.c.changed), failed)
        .where(run_hosts.c.run_id.in_(run_ids)).group_by(run_hosts.c.run_id))
    return {run_id: {"hosts": hosts, "changed": int(changed or 0), "failed_hosts": int(failures or 0)}
            for run_id, hosts, changed, failures in rows}


# -- show ---------------------------------------------------------------------------------------------------
def show_run(connection: Connection, run_id: int) -> dict[str, Any]:
    """One run: what ran it, its plays and tasks with each host's result, per-host counts, the slowest tasks."""
    row = find_run(connection, run_id)
    detail = run_summary(row)
    detail.update({"command": row.command, "pid": row.pid, "project_path": row.project_path,
                   "git_commit": row.git_commit, "diff_mode": bool(row.diff_mode), "plan_hash": row.plan_hash})
    results: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for result in connection.execute(select(host_results).where(host_results.c.run_id == run_id)
                                     .order_by(host_results.c.id)):
        results[result.task_id].append({"host": result.host, "status": result.status, "changed": result.changed,
                                        "ignored": result.ignored, "delegated_to": result.delegated_to,
                                        "duration": result.duration, "ended_at": iso(result.ended_at),
                                        "result": result.result, "diff": result.diff})
    by_play: dict[int | None, list[dict[str, Any]]] = defaultdict(list)
    all_tasks = []
    for task in connection.execute(select(tasks).where(tasks.c.run_id == run_id).order_by(tasks.c.seq)):
        entry = {"name": task.name, "module": task.module, "role": task.role, "file": task.file, "line": task.line,
                 "handler": task.is_handler, "started_at": iso(task.started_at), "hosts": results.get(task.id, [])}
        durations = [r["duration"] for r in entry["hosts"] if r["duration"] is not None]
        entry["duration"] = max(durations) if durations else None
        by_play[task.play_id].append(entry)
        all_tasks.append(entry)
    detail["plays"] = [{"name": play.name, "pattern": play.pattern, "position": play.position,
                        "started_at": iso(play.started_at), "tasks": by_play.get(play.id, [])}
                       for play in connection.execute(select(plays).where(plays.c.run_id == run_id)
                                                      .order_by(plays.c.seq))]
    detail["hosts"] = {stats.host: {name: getattr(stats, name) for name in COUNTS}
                       for stats in connection.execute(select(run_hosts).where(run_hosts.c.run_id == run_id)
                                                       .order_by(run_hosts.c.host))}
    timed = sorted((task for task in all_tasks if task["duration"] is not None), key=lambda t: -t["duration"])
    detail["slowest_tasks"] = [{"name": task["name"], "file": task["file"], "line": task["line"],
                                "duration": task["duration"]} for task in timed[:SLOWEST]]
    detail["files"] = [{"path": f.path, "kind": f.kind, "sha256": f.sha256}
                       for f in connection.execute(select(run_files).where(run_files.c.run_id == run_id)
                                                   .order_by(run_files.c.path))]
    return detail


# -- host ---------------------------------------------------------------------------------------------------
def host_history(connection: Connection, host: str, *, limit: int = 20, offset: int = 0) -> dict[str, Any]:
    """A host's runs (newest first, with its counts in each), its last change and failure, its latest facts."""
    history = []
    for row in connection.execute(select(runs, *(run_hosts.c[name] for name in COUNTS))
                                  .join(run_hosts, run_hosts.c.run_id == runs.c.id)
                                  .where(run_hosts.c.host == host)
                                  .order_by(desc(runs.c.started_at), desc(runs.c.id))
                                  .limit(limit).offset(offset)):
        summary = run_summary(row)
        summary["counts"] = {name: getattr(row, name) for name in COUNTS}
        history.append(summary)
    facts = connection.execute(select(host_facts).where(host_facts.c.host == host)).first()
    answer = {"host": host, "runs": history,
              "last_changed": _last_result(connection, host, host_results.c.status == "changed"),
              "last_failed": _last_result(connection, host, and_(
                  host_results.c.status.in_(("failed", "unreachable")), host_results.c.ignored.is_(False))),
              "facts": facts.facts if facts else None,
              "facts_updated_at": iso(facts.updated_at) if facts else None,
              "facts_run": facts.run_id if facts else None}
    if not history and facts is None:
        raise NotRecorded(f"no run recorded for host '{host}'")
    return answer


def _last_result(connection: Connection, host: str, condition: Any) -> dict[str, Any] | None:
    row = connection.execute(
        select(host_results.c.run_id, host_results.c.status, host_results.c.ended_at, host_results.c.result,
               tasks.c.name, tasks.c.file, tasks.c.line)
        .join(tasks, tasks.c.id == host_results.c.task_id)
        .where(host_results.c.host == host, condition)
        .order_by(desc(host_results.c.ended_at), desc(host_results.c.id)).limit(1)).first()
    if row is None:
        return None
    return {"run": row.run_id, "task": row.name, "file": row.file, "line": row.line, "status": row.status,
            "ended_at": iso(row.ended_at), "msg": (row.result or {}).get("msg")}


# -- diff ---------------------------------------------------------------------------------------------------
def diff_runs(connection: Connection, first: int, second: int) -> dict[str, Any]:
    """What differs between two runs of one playbook: the files it read, the plan, each task's outcome per host,
    the hosts."""
    a, b = find_run(connection, first), find_run(connection, second)
    if a.playbook != b.playbook:
        raise RecordsError(f"runs {first} and {second} are of different playbooks ({a.playbook or a.kind}, "
                           f"{b.playbook or b.kind}): only runs of one playbook compare")
    files_a, files_b = _files(connection, first), _files(connection, second)
    outcomes_a, outcomes_b = _outcomes(connection, first), _outcomes(connection, second)
    tasks_changed = []
    for key in [*outcomes_a, *(k for k in outcomes_b if k not in outcomes_a)]:
        before, after = outcomes_a.get(key, {}), outcomes_b.get(key, {})
        hosts = {host: {"before": before.get(host), "after": after.get(host)}
                 for host in sorted(set(before) | set(after)) if before.get(host) != after.get(host)}
        if hosts:
            name, file, line, handler, _ = key
            tasks_changed.append({"name": name, "file": file, "line": line, "handler": handler, "hosts": hosts,
                                  "only_in": first if not after else second if not before else None})
    hosts_a = {h.host for h in connection.execute(select(run_hosts.c.host).where(run_hosts.c.run_id == first))}
    hosts_b = {h.host for h in connection.execute(select(run_hosts.c.host).where(run_hosts.c.run_id == second))}
    return {"runs": [run_summary(a), run_summary(b)], "playbook": a.playbook,
            "plan_changed": a.plan_hash != b.plan_hash,
            "git": {"before": a.git_commit, "after": b.git_commit},
            "files": {"changed": sorted(p for p in set(files_a) & set(files_b) if files_a[p] != files_b[p]),
                      "added": sorted(set(files_b) - set(files_a)), "removed": sorted(set(files_a) - set(files_b))},
            "hosts": {"added": sorted(hosts_b - hosts_a), "removed": sorted(hosts_a - hosts_b)},
            "tasks": tasks_changed}


def _files(connection: Connection, run_id: int) -> dict[str, str]:
    return dict(connection.execute(select(run_files.c.path, run_files.c.sha256).where(run_files.c.run_id == run_id))
                .tuples().all())


def _outcomes(connection: Connection, run_id: int) -> dict[tuple[Any, ...], dict[str, str]]:
    """Each task (by name, file:line and how many times it ran before) → host → its status."""
    occurrences: dict[tuple[Any, ...], int] = defaultdict(int)
    task_keys: dict[int, tuple[Any, ...]] = {}
    for task in connection.execute(select(tasks).where(tasks.c.run_id == run_id).order_by(tasks.c.seq)):
        base = (task.name, task.file, task.line, bool(task.is_handler))
        task_keys[task.id] = (*base, occurrences[base])
        occurrences[base] += 1
    outcomes: dict[tuple[Any, ...], dict[str, str]] = {key: {} for key in task_keys.values()}
    for result in connection.execute(select(host_results.c.task_id, host_results.c.host, host_results.c.status,
                                            host_results.c.ignored).where(host_results.c.run_id == run_id)):
        outcomes[task_keys[result.task_id]][result.host] = result.status + (" (ignored)" if result.ignored else "")
    return outcomes


# -- prune --------------------------------------------------------------------------------------------------
def prune_runs(connection: Connection, older_than: timedelta) -> dict[str, int]:
    """Delete runs that started before now - ``older_than`` (finished or interrupted ones: never a running
    run), their rows, and the file contents no remaining run read."""
    cutoff = datetime.now(UTC) - older_than
    old = select(runs.c.id).where(runs.c.started_at < cutoff, runs.c.status != "running").scalar_subquery()
    connection.execute(update(host_facts).where(host_facts.c.run_id.in_(old)).values(run_id=None))
    for table in (host_values, play_hosts, host_results, tasks, plays, run_hosts, run_files):
        connection.execute(delete(table).where(table.c.run_id.in_(old)))
    pruned = connection.execute(delete(runs).where(runs.c.id.in_(old))).rowcount or 0
    unused = connection.execute(delete(files).where(~exists().where(run_files.c.sha256 == files.c.sha256)))
    return {"runs": pruned, "files": unused.rowcount or 0}
