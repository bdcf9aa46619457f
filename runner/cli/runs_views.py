"""How ``provisioning-runs`` prints what it read: tables and short reports (``--out json`` prints the data)."""

from __future__ import annotations

from typing import Any

from runner.records.periods import shown_seconds, shown_time
from runner.util.table import render_table

_COUNT_LABELS = ("ok", "changed", "unreachable", "failed", "skipped", "rescued", "ignored")


def _where(file: str | None, line: int | None) -> str:
    return f"{file}:{line}" if line is not None else str(file or "")


def runs_table(found: list[dict[str, Any]]) -> str:
    rows = [("ID", "STARTED", "DURATION", "STATUS", "KIND", "HOSTS", "CHANGED", "FAILED", "PLAYBOOK")]
    for run in found:
        status = run["status"] + (" (check)" if run["check_mode"] else "")
        rows.append((str(run["id"]), shown_time(run["started_at"]), shown_seconds(run["duration"]), status, run["kind"],
                     str(run["hosts"]), str(run["changed"]), str(run["failed_hosts"]), run["playbook"] or ""))
    return render_table(rows)


def run_report(run: dict[str, Any]) -> str:
    exit_code = "-" if run["exit_code"] is None else str(run["exit_code"])
    lines = [f"run {run['id']}: {run['kind']} {run['status']} (exit code {exit_code})",
             f"  command:  {run['command']}",
             f"  by:       {run['user']}@{run['controller']} (pid {run['pid']})",
             f"  project:  {run['project_path']}" + (f" (git {run['git_commit'][:12]})" if run["git_commit"] else ""),
             f"  started:  {shown_time(run['started_at'])} UTC, ended {shown_time(run['ended_at'])} "
             f"({shown_seconds(run['duration'])})",
             f"  modes:    check={'yes' if run['check_mode'] else 'no'} diff={'yes' if run['diff_mode'] else 'no'}"
             + (f", plan {run['plan_hash'][:12]}" if run["plan_hash"] else "")]
    for play in run["plays"]:
        lines += ["", f"PLAY [{play['name']}] {play['position']}"]
        for task in play["tasks"]:
            prefix = "HANDLER" if task["handler"] else "TASK"
            lines.append(f"  {prefix} [{task['name']}] {_where(task['file'], task['line'])}")
            for result in task["hosts"]:
                state = result["status"] + (" (ignored)" if result["ignored"] else "")
                target = result["host"] + (f" -> {result['delegated_to']}" if result["delegated_to"] else "")
                lines.append(f"    {state}: [{target}] {shown_seconds(result['duration'])}")
    if run["hosts"]:
        lines += ["", "HOSTS", _indent(render_table(
            [("HOST", *(label.upper() for label in _COUNT_LABELS))]
            + [(host, *(str(counts[label]) for label in _COUNT_LABELS)) for host, counts in run["hosts"].items()]))]
    if run["slowest_tasks"]:
        lines += ["", "SLOWEST TASKS", _indent(render_table(
            [("DURATION", "TASK", "WHERE")]
            + [(shown_seconds(task["duration"]), task["name"], _where(task["file"], task["line"]))
               for task in run["slowest_tasks"]]))]
    return "\n".join(lines)


def host_report(history: dict[str, Any]) -> str:
    lines = [f"host {history['host']}"]
    for label, key in (("last changed", "last_changed"), ("last failed", "last_failed")):
        found = history[key]
        if found is None:
            lines.append(f"  {label}: never")
        else:
            lines.append(f"  {label}: run {found['run']} at {shown_time(found['ended_at'])}: {found['task']} "
                         f"({_where(found['file'], found['line'])})"
                         + (f": {found['msg']}" if key == "last_failed" and found["msg"] else ""))
    facts = history["facts"]
    if facts:
        shown = {key: facts[key] for key in ("fqdn", "distribution", "distribution_version", "kernel",
                                             "architecture", "default_ipv4") if key in facts}
        if isinstance(shown.get("default_ipv4"), dict):
            shown["default_ipv4"] = shown["default_ipv4"].get("address", "")
        lines.append(f"  facts (run {history['facts_run']}, {shown_time(history['facts_updated_at'])}): "
                     + ", ".join(f"{key}={value}" for key, value in shown.items())
                     + f" ({len(facts)} facts; --out json shows them all)")
    else:
        lines.append("  facts: none recorded")
    rows = [("RUN", "STARTED", "STATUS", *(label.upper() for label in _COUNT_LABELS), "PLAYBOOK")]
    for run in history["runs"]:
        rows.append((str(run["id"]), shown_time(run["started_at"]), run["status"],
                     *(str(run["counts"][label]) for label in _COUNT_LABELS), run["playbook"] or run["kind"]))
    return "\n".join([*lines, "", _indent(render_table(rows))])


def diff_report(difference: dict[str, Any]) -> str:
    first, second = (run["id"] for run in difference["runs"])
    lines = [f"runs {first} -> {second} of {difference['playbook']}"]
    git = difference["git"]
    if git["before"] != git["after"]:
        lines.append(f"  git: {(git['before'] or '-')[:12]} -> {(git['after'] or '-')[:12]}")
    lines.append(f"  plan: {'changed' if difference['plan_changed'] else 'the same'}")
    for kind in ("changed", "added", "removed"):
        for path in difference["files"][kind]:
            lines.append(f"  file {kind}: {path}")
    for kind in ("added", "removed"):
        for host in difference["hosts"][kind]:
            lines.append(f"  host {kind}: {host}")
    if not difference["tasks"]:
        lines.append("  every task went the same way on every host")
    for task in difference["tasks"]:
        only = f" (only in run {task['only_in']})" if task["only_in"] else ""
        lines.append(f"  TASK [{task['name']}] {_where(task['file'], task['line'])}{only}")
        for host, change in task["hosts"].items():
            lines.append(f"    {host}: {change['before'] or '-'} -> {change['after'] or '-'}")
    return "\n".join(lines)


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())
