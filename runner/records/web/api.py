"""The JSON API: ``/api/...`` routes answering with the records' data as the queries give it.

Lists are pages: ``{"total", "limit", "offset", "items", "next"}`` where ``next`` is the URL of the next page,
or null on the last one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import Connection

from runner.records import queries
from runner.records.periods import RESULT_STATUSES
from runner.records.web import listing, params
from runner.records.web.openapi import openapi_document
from runner.records.web.reader import RecordsReader
from runner.records.web.router import Request, Response, Router

JSON_TYPE = "application/json; charset=utf-8"


def json_response(data: Any, status: int = 200) -> Response:
    body = json.dumps(data, ensure_ascii=False, default=str).encode()
    return Response(status, body, JSON_TYPE)


def with_next(page: dict[str, Any], request: Request) -> dict[str, Any]:
    """The page with the URL of the next one (the same query, the offset moved on)."""
    following = page["offset"] + page["limit"]
    if following >= page["total"]:
        return {**page, "next": None}
    query = {key: value for key, value in request.query.items() if value}
    query.update({"offset": str(following), "limit": str(page["limit"])})
    return {**page, "next": f"{request.path}?{urlencode(query)}"}


def run_page(connection: Connection, filters: dict[str, Any], limit: int, offset: int) -> dict[str, Any]:
    return {"total": queries.count_runs(connection, **filters), "limit": limit, "offset": offset,
            "items": queries.list_runs(connection, **filters, limit=limit, offset=offset)}


def run_detail(connection: Connection, run_id: int) -> dict[str, Any]:
    """A run without its plays and tasks (those are pages of their own), with its hosts' counts."""
    detail = queries.show_run(connection, run_id)
    detail["hosts"] = listing.run_hosts_counts(connection, run_id)
    for name in ("plays", "files"):
        detail.pop(name)
    return detail


def host_detail(connection: Connection, host: str, limit: int, offset: int) -> dict[str, Any]:
    """A host's history without its facts: they are not censored when recorded (an environment variable may
    hold a secret), so they stay for ``provisioning-runs host`` on the controller."""
    history = queries.host_history(connection, host, limit=limit, offset=offset)
    for name in ("facts", "facts_updated_at", "facts_run"):
        history.pop(name)
    return history


def add_api_routes(router: Router, reader: RecordsReader) -> None:
    def reading(build: Callable[[Connection, Request], Any]) -> Callable[[Request], Response]:
        return lambda request: json_response(reader.read(lambda connection: build(connection, request)))

    def route(pattern: str, build: Callable[[Connection, Request], Any]) -> None:
        router.route(pattern)(reading(build))

    router.route("/api/openapi.json")(lambda _request: json_response(openapi_document()))
    route("/api/runs", lambda connection, request: with_next(
        run_page(connection, params.run_filters(request.query), *params.paging(request.query)), request))
    route("/api/runs/{run:int}", lambda connection, request: run_detail(connection, request.parameters["run"]))
    route("/api/runs/{run:int}/plays",
          lambda connection, request: listing.run_plays(connection, request.parameters["run"]))
    route("/api/runs/{run:int}/tasks", lambda connection, request: with_next(listing.run_tasks(
        connection, request.parameters["run"], **_paging(request)), request))
    route("/api/runs/{run:int}/results", lambda connection, request: with_next(listing.run_results(
        connection, request.parameters["run"], host=params.text(request.query, "host"),
        status=params.choice(request.query, "status", RESULT_STATUSES), **_paging(request)), request))
    route("/api/runs/{run:int}/hosts",
          lambda connection, request: listing.run_hosts_counts(connection, request.parameters["run"]))
    route("/api/runs/{run:int}/files",
          lambda connection, request: listing.run_files_read(connection, request.parameters["run"]))
    route("/api/runs/{run:int}/timeline",
          lambda connection, request: listing.timeline(connection, request.parameters["run"]))
    route("/api/results/{result:int}",
          lambda connection, request: listing.one_result(connection, request.parameters["result"]))
    route("/api/hosts", lambda connection, request: with_next(listing.known_hosts(connection, **_paging(request)),
                                                               request))
    route("/api/hosts/{host}", lambda connection, request: host_detail(
        connection, request.parameters["host"], *params.paging(request.query)))


def _paging(request: Request) -> dict[str, int]:
    limit, offset = params.paging(request.query)
    return {"limit": limit, "offset": offset}
