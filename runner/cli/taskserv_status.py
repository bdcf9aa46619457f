"""``provisioning-infra taskserv status``: each taskserv's health check on each server, run once and read-only,
gathered from the run's results into one table (or ``--out json``) instead of the run's own output."""

from __future__ import annotations

from typing import Any

from runner.callbacks.base import Callback, TaskInfo
from runner.compiler.infra import InfraPlays
from runner.infra.outputs import StatusEntry, TaskservStatus
from runner.infra.servers import AnyServer
from runner.util.table import render_table

HEALTH_CHECK = " : health check ("


class StatusCollector(Callback):
    """What the status plays said: which servers run, and each health check's result per server."""

    def __init__(self) -> None:
        self.running: set[str] = set()
        self.checks: dict[tuple[str, str], tuple[bool, str]] = {}

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        if task.module == "server" and result.get("add_host"):
            self.running.add(host)
        elif HEALTH_CHECK in task.name and result.get("_status") != "skipped":
            healthy = not result.get("failed")
            self.checks[(host, task.name.split(HEALTH_CHECK)[0])] = (healthy, _detail(result, healthy))


def status_of(plays: InfraPlays, servers: list[AnyServer], only: str | None,
              collector: StatusCollector) -> TaskservStatus:
    """One entry per server and taskserv it carries (``only``: that one), in install order."""
    entries = []
    for server in servers:
        order = plays.order_of(server)
        for step in [] if order is None else order.resolution.steps:
            if only is not None and step.name != only:
                continue
            name = step.name
            if server.hostname not in collector.running:
                entry = StatusEntry(server=server.hostname, taskserv=name, status="server down",
                                    detail="the server does not run")
            elif step.taskserv.meta.health_check is None:
                entry = StatusEntry(server=server.hostname, taskserv=name, status="no check",
                                    detail="its role declares no health check")
            else:
                healthy, detail = collector.checks.get((server.hostname, name), (False, "the check did not run"))
                entry = StatusEntry(server=server.hostname, taskserv=name,
                                    status="healthy" if healthy else "unhealthy", detail=detail)
            entries.append(entry)
    return TaskservStatus(infra=plays.infra.name or "", checks=entries)


def status_table(status: TaskservStatus) -> str:
    return render_table([("SERVER", "TASKSERV", "STATUS", "DETAIL")] + [
        (entry.server, entry.taskserv, entry.status, entry.detail) for entry in status.checks])


def _detail(result: dict[str, Any], healthy: bool) -> str:
    if "rc" in result and "cmd" in result:
        output = (result.get("stdout") or result.get("stderr") or "").strip().splitlines()
        return f"rc={result['rc']}" + (f": {output[0]}" if output else "")
    if isinstance(result.get("status"), int) and result["status"] > 0 and "url" in result:
        return f"HTTP {result['status']} from {result['url']}"
    message = str(result.get("msg") or ("answers" if healthy else "no answer"))
    return message.splitlines()[0] if message else ""
