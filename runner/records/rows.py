"""Events turned into rows, on the writer thread: results as the JSON report stores them, secrets masked."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from runner.callbacks.base import TaskInfo
from runner.callbacks.results import is_censored, loop_items, report_result, short_module, status_of
from runner.errors import ExitCode
from runner.secrets.censor import MASK, censor

_STATUS_BY_EXIT = {ExitCode.OK: "ok", ExitCode.HOST_FAILED: "failed", ExitCode.UNREACHABLE: "unreachable",
                   ExitCode.INTERRUPTED: "interrupted"}
FACT_MODULES = ("setup", "gather_facts")
# key=value (or "key": value) pairs on the command line whose key says it is a secret.
_SECRET_PAIR = re.compile(r"""(\w*(?:pass|secret|token|key|credential)\w*["']?\s*[=:]\s*)"""
                          r"""("[^"]*"|'[^']*'|[^\s,}]+)""", re.IGNORECASE)


def run_status(exit_code: int) -> str:
    try:
        return _STATUS_BY_EXIT.get(ExitCode(exit_code), "error")
    except ValueError:
        return "error"


def censored_command(argv: list[str]) -> str:
    """The command line as recorded: decrypted secrets masked, and in extra vars (``-e db_password=...``) the
    values of keys that say they are secret."""
    shown: list[str] = []
    extra_vars_next = False
    for argument in argv:
        inline = argument.startswith("--extra-vars=") or (argument.startswith("-e") and argument != "-e")
        if extra_vars_next or inline:
            argument = _SECRET_PAIR.sub(lambda match: match.group(1) + MASK, argument)
        extra_vars_next = argument in ("-e", "--extra-vars")
        shown.append(shlex.quote(argument))
    return censor(" ".join(shown))


def split_position(position: str) -> tuple[str, int | None]:
    """``file:line:col`` → (file, line)."""
    parts = position.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return parts[0], int(parts[1])
    return position, None


def task_row(run_id: int, play_id: int | None, seq: int, task: TaskInfo, started: datetime) -> dict[str, Any]:
    file, line = split_position(task.position)
    return {"run_id": run_id, "play_id": play_id, "seq": seq, "uid": task.uid, "name": task.title,
            "module": task.module, "role": task.role, "file": file, "line": line, "is_handler": task.is_handler,
            "started_at": started}


def result_row(run_id: int, task_id: int, task: TaskInfo, host: str, result: Mapping[str, Any],
               ended: datetime) -> dict[str, Any]:
    stored = report_result(task, result)
    if short_module(task.module) in FACT_MODULES:
        stored.pop("ansible_facts", None)  # kept once per host in host_facts, not in every run's results
    diff = None if is_censored(task, result) else _diff_of(stored)
    duration = result.get("_duration")
    return {"run_id": run_id, "task_id": task_id, "host": host, "status": status_of(result),
            "changed": bool(result.get("changed")), "ignored": bool(result.get("_ignored")),
            "delegated_to": result.get("_delegated_to") or None,
            "duration": float(duration) if isinstance(duration, int | float) else None,
            "ended_at": ended, "result": stored, "diff": diff}


def _diff_of(stored: dict[str, Any]) -> Any:
    """The result's diff, taken out of it; for a loop, the items' diffs (each item keeps its own too)."""
    diff = stored.pop("diff", None)
    if diff is None:
        items = [item.get("diff") for item in loop_items(stored) or () if item.get("diff")]
        diff = items or None
    return diff


# The fact the first module of a run reports on its own (the Python found on the host): alone, it says nothing
# of the host's state, and must not stand for its latest facts in place of gathered ones.
_RUN_OWN_FACTS = frozenset(["discovered_interpreter_python"])


def facts_of(task: TaskInfo, result: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Facts a result sets, by host (a delegated task may set another host's); none from a no_log task."""
    facts = result.get("_facts")
    if not isinstance(facts, Mapping) or is_censored(task, result):
        return {}
    return {str(host): dict(values) for host, values in facts.items()
            if isinstance(values, Mapping) and not set(values) <= _RUN_OWN_FACTS}


def values_rows(run_id: int, task_id: int | None, task: TaskInfo | None, host: str,
                values: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The variables a task set for a host, one row per kind; a no_log task's are kept by name only."""
    hidden = task is not None and task.no_log
    return [{"run_id": run_id, "task_id": task_id, "host": host, "kind": kind,
             "value": None if hidden else dict(named), "censored": hidden, "names": sorted(named)}
            for kind, named in values.items() if named]
