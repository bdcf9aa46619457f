"""A small UpCloud API 1.3 on 127.0.0.1, stateful, following the documented requests and answers.

Servers: ``POST /1.3/server`` (202, state ``maintenance``; ``started`` after ``polls_to_start`` reads of its
details), ``GET /1.3/server``, ``GET /1.3/server/{uuid}``, ``POST .../start``, ``POST .../stop`` (``stopped``
after one read), ``DELETE /1.3/server/{uuid}[?storages=1]`` (only a stopped server: 400 SERVER_STATE_ILLEGAL
otherwise); public templates at ``GET /1.3/storage/template``. HTTP basic auth (401 AUTHENTICATION_FAILED).
Errors are ``{"error": {"error_code", "error_message"}}``. ``fail_next`` queues answers such as 429 or 503, and
``requests`` records every request (method, path, query, JSON body, Authorization header) for the tests.
"""

from __future__ import annotations

import base64
import itertools
import json
import threading
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

TEMPLATES = [
    {"uuid": "01000000-0000-4000-8000-000020070100", "title": "Debian GNU/Linux 12 (Bookworm)"},
    {"uuid": "01000000-0000-4000-8000-000030240200", "title": "Ubuntu Server 24.04 LTS (Noble Numbat)"},
]
PUBLIC_TEMPLATES = [dict(template, type="template", access="public") for template in TEMPLATES]


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    authorization: str


@dataclass
class Canned:
    status: int
    code: str
    message: str
    headers: dict[str, str] = field(default_factory=dict)


class UpcloudApi:
    """Start with ``with UpcloudApi() as api:``; ``api.url`` is the base URL to give the provider."""

    def __init__(self, username: str = "tester", password: str = "s3cret-Pa55", polls_to_start: int = 1):
        self.username = username
        self.password = password
        self.polls_to_start = polls_to_start
        self.servers: dict[str, dict[str, Any]] = {}
        self.kept_storages: list[dict[str, Any]] = []
        self.requests: list[Recorded] = []
        self.canned: list[Canned] = []
        self._polls: dict[str, int] = {}
        self._numbers = itertools.count(10)
        self._lock = threading.Lock()
        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> UpcloudApi:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join()

    def fail_next(self, status: int, code: str, message: str = "", times: int = 1, **headers: str) -> None:
        """Answer the next ``times`` authenticated requests with this error (429, 503, 402 ...)."""
        self.canned += [Canned(status, code, message or code, dict(headers))] * times

    # -- the API -----------------------------------------------------------------------------------------------

    def handle(self, method: str, path: str, query: dict[str, list[str]], body: Any) -> tuple[int, Any, dict]:
        parts = [part for part in path.split("/") if part]
        if parts[:1] != ["1.3"]:
            return _error(404, "API_VERSION_NOT_FOUND", "Only API 1.3 is served here")
        route = parts[1:]
        with self._lock:
            if route == ["server"] and method == "GET":
                return 200, {"servers": {"server": [self._summary(server) for server in self.servers.values()]}}, {}
            if route == ["server"] and method == "POST":
                return self._create(body)
            if route == ["storage", "template"] and method == "GET":
                return 200, {"storages": {"storage": PUBLIC_TEMPLATES}}, {}
            if len(route) >= 2 and route[0] == "server":
                server = self.servers.get(route[1])
                if server is None:
                    return _error(404, "SERVER_NOT_FOUND", f"The server {route[1]} does not exist.")
                return self._on_server(server, method, route[2:], query)
        return _error(404, "NOT_FOUND", f"No such resource: {method} {path}")

    def _create(self, body: Any) -> tuple[int, Any, dict]:
        spec = body.get("server") if isinstance(body, dict) else None
        if not isinstance(spec, dict):
            return _error(400, "SERVER_INVALID", "The request body must hold a server.")
        for name in ("zone", "hostname", "title", "storage_devices"):
            if not spec.get(name):
                return _error(400, f"{name.upper()}_MISSING", f"The attribute {name} is missing.")
        devices = spec["storage_devices"].get("storage_device", [])
        if not devices or any(device.get("size") is None or not 10 <= int(device["size"]) <= 4096
                              for device in devices):
            return _error(400, "STORAGE_DEVICE_INVALID", "Each storage device needs a size from 10 to 4096.")
        number = next(self._numbers)
        server_uuid = str(uuid.uuid4())
        interfaces = spec.get("networking", {}).get("interfaces", {}).get("interface", [{"type": "public"}])
        kinds = [interface["type"] for interface in interfaces]
        addresses = [{"access": kind, "family": "IPv4",
                      "address": f"94.237.0.{number}" if kind == "public" else f"10.1.0.{number}"} for kind in kinds]
        self.servers[server_uuid] = {
            "uuid": server_uuid, "hostname": spec["hostname"], "title": spec["title"], "zone": spec["zone"],
            "plan": spec.get("plan", "1xCPU-1GB"), "state": "maintenance",
            "ip_addresses": {"ip_address": addresses},
            "storage_devices": {"storage_device": [
                {"storage": str(uuid.uuid4()), "storage_size": device["size"], "storage_title": device.get("title"),
                 "type": "disk", "address": f"virtio:{index}"} for index, device in enumerate(devices)]},
            "login_user": spec.get("login_user"),
        }
        self._polls[server_uuid] = 0
        return 202, {"server": self.servers[server_uuid]}, {}

    def _on_server(self, server: dict[str, Any], method: str, rest: list[str], query: dict[str, list[str]]
                   ) -> tuple[int, Any, dict]:
        key = server["uuid"]
        if method == "GET" and not rest:
            self._polls[key] = self._polls.get(key, 0) + 1
            if server["state"] == "maintenance" and self._polls[key] >= self.polls_to_start:
                server["state"] = "stopped" if server.get("stopping") else "started"
                server.pop("stopping", None)
            return 200, {"server": server}, {}
        if method == "POST" and rest == ["stop"]:
            if server["state"] != "started":
                return _error(400, "SERVER_STATE_ILLEGAL", "The server is not started.")
            server["state"], server["stopping"], self._polls[key] = "maintenance", True, 0
            return 202, {"server": server}, {}
        if method == "POST" and rest == ["start"]:
            server["state"] = "started"
            return 200, {"server": server}, {}
        if method == "DELETE" and not rest:
            if server["state"] != "stopped":
                return _error(400, "SERVER_STATE_ILLEGAL", "The server must be stopped to be deleted.")
            del self.servers[key]
            if query.get("storages") != ["1"]:
                self.kept_storages += server["storage_devices"]["storage_device"]
            return 204, None, {}
        return _error(405, "METHOD_NOT_ALLOWED", f"{method} is not allowed here")

    @staticmethod
    def _summary(server: dict[str, Any]) -> dict[str, Any]:
        return {key: server[key] for key in ("uuid", "hostname", "title", "zone", "plan", "state")}

    def authorised(self, header: str) -> bool:
        expected = base64.b64encode(f"{self.username}:{self.password}".encode()).decode()
        return header == f"Basic {expected}"


def _error(status: int, code: str, message: str) -> tuple[int, Any, dict]:
    return status, {"error": {"error_code": code, "error_message": message}}, {}


def _handler(api: UpcloudApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:  # quiet: the tests read api.requests instead
            pass

        def _serve(self) -> None:
            split = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            authorization = self.headers.get("Authorization", "")
            api.requests.append(Recorded(self.command, split.path, parse_qs(split.query), body, authorization))
            headers: dict[str, str] = {}
            if not api.authorised(authorization):
                status, payload, _ = _error(401, "AUTHENTICATION_FAILED",
                                            "Authentication failed using the given username and password.")
            elif api.canned:
                canned = api.canned.pop(0)
                status, payload, _ = _error(canned.status, canned.code, canned.message)
                headers = canned.headers
            else:
                status, payload, headers = api.handle(self.command, split.path, parse_qs(split.query), body)
            data = b"" if payload is None else json.dumps(payload).encode()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name.replace("_", "-"), value)
            if data:
                self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_DELETE = do_PUT = _serve

    return Handler
