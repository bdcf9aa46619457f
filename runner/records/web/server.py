"""The HTTP server: a ThreadingHTTPServer whose handler checks access, routes GET and HEAD requests, and
turns every error into a status and a message (JSON under ``/api``, a page elsewhere), never a traceback.

Every answer carries headers that keep a browser from running anything but the pages' own script
(Content-Security-Policy), from guessing types, and from caching records behind a login.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qsl, unquote, urlsplit

from runner.errors import UserError
from runner.records.database import NotRecorded, RecordsError
from runner.records.web.access import Access
from runner.records.web.api import add_api_routes, json_response
from runner.records.web.pages import HTML_TYPE, add_page_routes, make_environment
from runner.records.web.reader import RecordsReader
from runner.records.web.router import HttpError, Response, Router

_STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def build_router(reader: RecordsReader) -> Router:
    router = Router()
    add_api_routes(router, reader)
    add_page_routes(router, reader)
    router.route("/static/{name}")(lambda request: _static(request.parameters["name"]))
    return router


def _static(name: str) -> Response:
    suffix = name[name.rfind("."):] if "." in name else ""
    if suffix not in _STATIC_TYPES or "/" in name or name.startswith("."):
        raise HttpError(404, f"no static file {name}")
    source = resources.files("runner.records.web") / "static" / name
    if not source.is_file():
        raise HttpError(404, f"no static file {name}")
    return Response(200, source.read_bytes(), _STATIC_TYPES[suffix])


class RecordsServer(ThreadingHTTPServer):
    daemon_threads = True  # a browser's open connection never holds the server's stop
    block_on_close = False

    def __init__(self, address: tuple[str, int], router: Router, access: Access):
        self.router = router
        self.access = access
        self.error_page = make_environment().get_template("error.html")
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, RecordsHandler)


class RecordsHandler(BaseHTTPRequestHandler):
    server: RecordsServer
    server_version = "provisioning-runs"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _refuse_write(self) -> None:
        self._send(self._error(HTTPStatus.METHOD_NOT_ALLOWED, "the run records are read-only", api=True),
                   send_body=True, extra={"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_PATCH = do_DELETE = _refuse_write

    def _answer(self, *, send_body: bool) -> None:
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        api = path.startswith("/api/")
        if not self.server.access.allows(self.headers.get("Authorization"), self.headers.get("Host")):
            if self.server.access.mode == "none":  # a Host that is not this machine's: no credential helps
                self._send(self._error(HTTPStatus.FORBIDDEN, "this server answers requests for localhost only",
                                       api=api), send_body=send_body)
            else:
                self._send(self._error(HTTPStatus.UNAUTHORIZED, "authentication required", api=api),
                           send_body=send_body, extra={"WWW-Authenticate": self.server.access.challenge})
            return
        try:
            response = self.server.router.dispatch(path, dict(parse_qsl(parts.query)))
        except HttpError as exc:
            response = self._error(HTTPStatus(exc.status), exc.message, api=api)
        except NotRecorded as exc:
            response = self._error(HTTPStatus.NOT_FOUND, exc.message, api=api)
        except RecordsError as exc:
            response = self._error(HTTPStatus.SERVICE_UNAVAILABLE, exc.message, api=api)
        except Exception as exc:  # a bug: answered as one, logged without the request's content
            self.log_error("internal error on %s: %s: %s", path, type(exc).__name__, exc)
            response = self._error(HTTPStatus.INTERNAL_SERVER_ERROR, "internal error", api=api)
        self._send(response, send_body=send_body)

    def _error(self, status: HTTPStatus, message: str, *, api: bool) -> Response:
        if api:
            return json_response({"error": message}, status.value)
        body = self.server.error_page.render(status=status.value, reason=status.phrase, message=message)
        return Response(status.value, body.encode(), HTML_TYPE)

    def _send(self, response: Response, *, send_body: bool, extra: dict[str, str] | None = None) -> None:
        self.send_response(response.status)
        for name, value in {**_SECURITY_HEADERS, **response.headers, **(extra or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if send_body:
            self.wfile.write(response.body)


def start_server(reader: RecordsReader, access: Access, host: str, port: int) -> RecordsServer:
    """A server listening on ``host``:``port`` (0: a free port), not yet serving."""
    try:
        return RecordsServer((host, port), build_router(reader), access)
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve_in_thread(server: RecordsServer) -> Callable[[], None]:
    """Serve on a thread of its own (tests, embedding); the function returned stops it and closes it."""
    thread = threading.Thread(target=server.serve_forever, name="records-web", daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(timeout=30)

    return stop
