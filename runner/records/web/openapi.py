"""The API's OpenAPI 3.1 description, served at ``/api/openapi.json``: every route, its parameters and the
shape of its answers, kept beside the routes (a test checks that each route is described)."""

from __future__ import annotations

from typing import Any

from runner.records.periods import RESULT_STATUSES, RUN_STATUSES


def _parameter(name: str, where: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": where, "required": where == "path", "schema": schema, "description": description}


_LIMIT = _parameter("limit", "query", {"type": "integer", "minimum": 1, "maximum": 500, "default": 50},
                    "At most this many items.")
_OFFSET = _parameter("offset", "query", {"type": "integer", "minimum": 0, "default": 0}, "Skip this many items.")
_RUN = _parameter("run", "path", {"type": "integer"}, "The run's id.")
_NULLABLE_STRING = {"type": ["string", "null"]}
_NULLABLE_NUMBER = {"type": ["number", "null"]}

_RUN_SUMMARY = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"}, "kind": {"enum": ["playbook", "adhoc", "infra"]},
        "status": {"enum": list(RUN_STATUSES)}, "playbook": _NULLABLE_STRING,
        "started_at": {"type": "string", "format": "date-time"}, "ended_at": _NULLABLE_STRING,
        "duration": _NULLABLE_NUMBER, "exit_code": {"type": ["integer", "null"]}, "user": {"type": "string"},
        "controller": {"type": "string"}, "check_mode": {"type": "boolean"}, "hosts": {"type": "integer"},
        "changed": {"type": "integer"}, "failed_hosts": {"type": "integer"},
    },
}
_RESULT = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"}, "run_id": {"type": "integer"}, "task_id": {"type": "integer"},
        "host": {"type": "string"}, "status": {"enum": list(RESULT_STATUSES)}, "changed": {"type": "boolean"},
        "ignored": {"type": "boolean"}, "delegated_to": _NULLABLE_STRING, "duration": _NULLABLE_NUMBER,
        "ended_at": {"type": "string", "format": "date-time"}, "msg": _NULLABLE_STRING,
    },
}
_TASK = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"}, "play_id": {"type": ["integer", "null"]}, "seq": {"type": "integer"},
        "name": {"type": "string"}, "module": {"type": "string"}, "role": _NULLABLE_STRING,
        "file": {"type": "string"}, "line": {"type": ["integer", "null"]}, "handler": {"type": "boolean"},
        "started_at": {"type": "string", "format": "date-time"},
    },
}


def _page(item: str) -> dict[str, Any]:
    return {"type": "object", "required": ["total", "limit", "offset", "items", "next"],
            "properties": {"total": {"type": "integer"}, "limit": {"type": "integer"},
                           "offset": {"type": "integer"}, "items": {"type": "array", "items": {"$ref": item}},
                           "next": {"type": ["string", "null"], "description": "The next page's URL."}}}


def _get(summary: str, schema: dict[str, Any], *parameters: dict[str, Any]) -> dict[str, Any]:
    responses: dict[str, Any] = {
        "200": {"description": "OK", "content": {"application/json": {"schema": schema}}},
        "400": {"$ref": "#/components/responses/Error"}, "401": {"$ref": "#/components/responses/Error"}}
    if any(parameter["in"] == "path" for parameter in parameters):
        responses["404"] = {"$ref": "#/components/responses/Error"}
    return {"get": {"summary": summary, "parameters": list(parameters), "responses": responses}}


PATHS: dict[str, dict[str, Any]] = {
    "/api/runs": _get(
        "Runs, newest first.", _page("#/components/schemas/RunSummary"),
        _parameter("playbook", "query", {"type": "string"}, "Its recorded path, or the end of it (site.yml)."),
        _parameter("host", "query", {"type": "string"}, "Only runs that touched this host."),
        _parameter("status", "query", {"enum": list(RUN_STATUSES)}, "Only runs in this status."),
        _parameter("since", "query", {"type": "string"},
                   "A duration back from now (30m, 12h, 7d, 2w) or a date or time (UTC unless it says)."),
        _LIMIT, _OFFSET),
    "/api/runs/{run}": _get("One run: its command, user, modes, each host's counts, its slowest tasks.",
                            {"type": "object"}, _RUN),
    "/api/runs/{run}/plays": _get("A run's plays.", {"type": "array", "items": {"type": "object"}}, _RUN),
    "/api/runs/{run}/tasks": _get("A run's tasks in the order they ran.", _page("#/components/schemas/Task"),
                                  _RUN, _LIMIT, _OFFSET),
    "/api/runs/{run}/results": _get(
        "A run's host results in the order they came.", _page("#/components/schemas/Result"), _RUN,
        _parameter("host", "query", {"type": "string"}, "Only this host's."),
        _parameter("status", "query", {"enum": list(RESULT_STATUSES)}, "Only results in this status."),
        _LIMIT, _OFFSET),
    "/api/runs/{run}/hosts": _get("Each host's counts in a run, as the recap prints them.",
                                  {"type": "array", "items": {"type": "object"}}, _RUN),
    "/api/runs/{run}/files": _get("The files a run read, by path, kind and sha256 (not their contents).",
                                  {"type": "array", "items": {"type": "object"}}, _RUN),
    "/api/runs/{run}/timeline": _get(
        "A run as a grid of tasks by hosts: each task with each host's result (its last, for a task run twice).",
        {"type": "object", "properties": {"hosts": {"type": "array", "items": {"type": "string"}},
                                          "tasks": {"type": "array", "items": {"type": "object"}}}}, _RUN),
    "/api/results/{result}": _get(
        "One host result in full: the result and diff as recorded (censored), with its task.",
        {"allOf": [{"$ref": "#/components/schemas/Result"},
                   {"type": "object", "properties": {"result": {"type": "object"}, "diff": {},
                                                     "task": {"$ref": "#/components/schemas/Task"}}}]},
        _parameter("result", "path", {"type": "integer"}, "The result's id.")),
    "/api/hosts": _get("Every host recorded, the most recently run first.", _page("#/components/schemas/Host"),
                       _LIMIT, _OFFSET),
    "/api/hosts/{host}": _get(
        "A host's history: its runs with its counts, its last change and last failure.", {"type": "object"},
        _parameter("host", "path", {"type": "string"}, "The host's inventory name."), _LIMIT, _OFFSET),
    "/api/openapi.json": {"get": {"summary": "This description.",
                                  "responses": {"200": {"description": "OK"}}}},
}


def openapi_document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "provisioning run records", "version": "1",
                 "description": "The recorded runs of provisioning-playbook, provisioning-infra and ad-hoc "
                                "commands, read-only. Results are as recorded: no_log results censored, "
                                "vault values masked."},
        "paths": PATHS,
        "components": {
            "schemas": {"RunSummary": _RUN_SUMMARY, "Result": _RESULT, "Task": _TASK,
                        "Host": {"type": "object", "properties": {
                            "host": {"type": "string"}, "runs": {"type": "integer"},
                            "last_run": {"type": "integer"}, "last_run_at": {"type": "string"}}}},
            "responses": {"Error": {"description": "An error", "content": {"application/json": {"schema": {
                "type": "object", "properties": {"error": {"type": "string"}}}}}}},
            "securitySchemes": {"basic": {"type": "http", "scheme": "basic"},
                                "bearer": {"type": "http", "scheme": "bearer"}},
        },
    }
