"""``provisioning-runs serve`` in tests: the server on a free loopback port of its own, in this process, and
plain HTTP requests to it (the standard library's client: what a script would use)."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from typing import Any

from runner.records.location import database_target
from runner.records.web.access import Access
from runner.records.web.reader import RecordsReader
from runner.records.web.server import serve_in_thread, start_server


@dataclass
class Answer:
    status: int
    headers: Message
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode()


@contextmanager
def serving(database: str, access: Access | None = None, host: str = "127.0.0.1") -> Iterator[str]:
    """The records of ``database`` served on a free port of ``host``: its base URL (``http://HOST:PORT``)."""
    reader = RecordsReader(database_target(database, Path.cwd()))
    server = start_server(reader, access or Access(), host, 0)
    stop = serve_in_thread(server)
    try:
        yield f"http://{host}:{server.server_address[1]}"
    finally:
        stop()
        reader.close()


def fetch(url: str, *, method: str = "GET", headers: dict[str, str] | None = None) -> Answer:
    request = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


def basic(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}
