"""The web pages: Jinja2 templates over the API's data, every value HTML-escaped (task names, messages and
results are user content). Live progress is ``live.js`` fetching a run's ``/runs/N/live`` fragment again
while the run is running."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from sqlalchemy import Connection

from runner.callbacks.diff import render_diff
from runner.records import queries
from runner.records.periods import RUN_STATUSES, shown_seconds, shown_time
from runner.records.web import listing, params
from runner.records.web.api import host_detail, run_page
from runner.records.web.reader import RecordsReader
from runner.records.web.router import Request, Response, Router

HTML_TYPE = "text/html; charset=utf-8"
RUNS_PER_PAGE = 25


def _diff_lines(diff: Any) -> list[tuple[str, str]]:
    """The diff as unified-diff lines, each with its kind (add, remove, hunk, header, context) for colour."""
    lines = []
    for line in render_diff(diff).splitlines():
        if line.startswith(("+++", "---")):
            kind = "header"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "remove"
        elif line.startswith("@@"):
            kind = "hunk"
        else:
            kind = "context"
        lines.append((kind, line))
    return lines


def make_environment() -> Environment:
    environment = Environment(loader=PackageLoader("runner.records.web", "templates"),
                              autoescape=select_autoescape(default=True), trim_blocks=True, lstrip_blocks=True)
    environment.filters.update({"seconds": shown_seconds, "when": shown_time,
                                "pretty": lambda value: json.dumps(value, indent=2, ensure_ascii=False, default=str),
                                "diff_lines": _diff_lines})
    environment.globals["run_statuses"] = RUN_STATUSES
    return environment


def add_page_routes(router: Router, reader: RecordsReader) -> None:
    environment = make_environment()

    def page(template: str, build: Any) -> Any:
        def handler(request: Request) -> Response:
            context = reader.read(lambda connection: build(connection, request))
            body = environment.get_template(template).render(**context).encode()
            return Response(200, body, HTML_TYPE)
        return handler

    router.route("/")(page("runs.html", _runs))
    router.route("/runs/{run:int}")(page("run.html", _run))
    router.route("/runs/{run:int}/live")(page("live.html", _run))
    router.route("/results/{result:int}")(page("result.html", _result))
    router.route("/hosts")(page("hosts.html", _hosts))
    router.route("/hosts/{host}")(page("host.html", _host))


def _page_links(request: Request, total: int, limit: int, offset: int) -> dict[str, str | None]:
    def link(at: int) -> str:
        query = {key: value for key, value in request.query.items() if value}
        query["offset"] = str(at)
        return f"{request.path}?{urlencode(query)}"

    return {"previous": link(max(offset - limit, 0)) if offset > 0 else None,
            "next": link(offset + limit) if offset + limit < total else None}


def _runs(connection: Connection, request: Request) -> dict[str, Any]:
    filters = params.run_filters(request.query)
    _, offset = params.paging(request.query)
    limit = params.integer(request.query, "limit", RUNS_PER_PAGE, minimum=1, maximum=params.MAX_LIMIT)
    found = run_page(connection, filters, limit, offset)
    return {"page": found, "links": _page_links(request, found["total"], limit, offset),
            "filters": {key: request.query.get(key, "") for key in ("playbook", "host", "status", "since")}}


def _run(connection: Connection, request: Request) -> dict[str, Any]:
    run_id = request.parameters["run"]
    detail = queries.show_run(connection, run_id)
    return {"run": detail, "timeline": listing.timeline(connection, run_id),
            "hosts": listing.run_hosts_counts(connection, run_id), "files": detail["files"]}


def _result(connection: Connection, request: Request) -> dict[str, Any]:
    result = listing.one_result(connection, request.parameters["result"])
    run = queries.run_summary(queries.find_run(connection, result["run_id"]))
    return {"result": result, "run": run}


def _hosts(connection: Connection, request: Request) -> dict[str, Any]:
    limit, offset = params.paging(request.query)
    found = listing.known_hosts(connection, limit=limit, offset=offset)
    return {"page": found, "links": _page_links(request, found["total"], limit, offset)}


def _host(connection: Connection, request: Request) -> dict[str, Any]:
    limit, offset = params.paging(request.query)
    return {"history": host_detail(connection, request.parameters["host"], limit, offset)}
