"""A loopback HTTP server for the get_url and uri tests, started by the tests themselves.

The test hosts share the machine's network, so a server on 127.0.0.1 here is reachable from them. It serves the
files of one directory (with Last-Modified / If-Modified-Since, as a real web server does) and a few routes that
show what a request carried: ``/echo`` (method, path, headers, body as JSON), ``/status/NNN``, ``/redirect/...``
(302 to the rest of the path), ``/auth/...`` (basic auth user:secret, then the file), ``/named`` (a file whose
name comes from Content-Disposition).
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

USER, PASSWORD = "user", "secret"


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # keep the test output clean
        return

    def _reply(self, status: int, body: bytes, content_type: str = "text/plain",
               extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _route(self) -> bool:
        """Answer the special routes; False for a plain file request."""
        path = self.path.split("?", 1)[0]
        if path.startswith("/echo"):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            payload = {"method": self.command, "path": self.path, "headers": dict(self.headers.items()),
                       "body": body}
            self._reply(200, json.dumps(payload).encode(), "application/json", {"X-Echo-Count": "1"})
            return True
        if path.startswith("/status/"):
            self._reply(int(path.split("/")[2]), b"status body\n")
            return True
        if path.startswith("/redirect/"):
            self._reply(302, b"", extra={"Location": path[len("/redirect"):]})
            return True
        if path.startswith("/auth/"):
            expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
            if self.headers.get("Authorization") != expected:
                self._reply(401, b"who are you?\n", extra={"WWW-Authenticate": 'Basic realm="tests"'})
                return True
            self.path = path[len("/auth"):]
            return False
        if path == "/named":
            self._reply(200, b"named content\n", extra={"Content-Disposition": 'attachment; filename="given.txt"'})
            return True
        return False

    def do_GET(self) -> None:
        if not self._route():
            super().do_GET()

    def do_HEAD(self) -> None:
        if not self._route():
            super().do_HEAD()

    def do_POST(self) -> None:
        if not self._route():
            self._reply(405, b"")

    do_PUT = do_DELETE = do_PATCH = do_POST


class LoopbackServer:
    """A running server: ``url(path)`` for a path on it, ``root`` for the files it serves."""

    def __init__(self, root: Path, server: ThreadingHTTPServer):
        self.root = root
        self.server = server

    @property
    def base(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def url(self, path: str) -> str:
        return self.base + "/" + path.lstrip("/")


@contextmanager
def serve(root: Path) -> Iterator[LoopbackServer]:
    """Serve ``root`` on 127.0.0.1 (a free port) for the duration of the block."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield LoopbackServer(root, server)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
