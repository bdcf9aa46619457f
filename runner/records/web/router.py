"""A tiny router: ``/api/runs/{run:int}`` patterns to handlers, and what a handler answers with."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

_PARAMETER = re.compile(r"\{(\w+)(?::(int|str))?\}")
_CONVERTERS: dict[str, tuple[str, Callable[[str], Any]]] = {"int": (r"[0-9]{1,18}", int), "str": (r"[^/]+", str)}


@dataclass
class Request:
    path: str
    query: Mapping[str, str]
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass
class Response:
    status: int
    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)


class HttpError(Exception):
    """An answer other than 200 with a message for the client (a bad parameter, a missing run)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


Handler = Callable[[Request], Response]


class Router:
    def __init__(self) -> None:
        self._routes: list[tuple[re.Pattern[str], dict[str, Callable[[str], Any]], Handler]] = []

    def route(self, pattern: str) -> Callable[[Handler], Handler]:
        """Register a handler for ``pattern`` (GET and HEAD: everything served is read-only)."""
        converters: dict[str, Callable[[str], Any]] = {}

        def parameter(match: re.Match[str]) -> str:
            expression, convert = _CONVERTERS[match.group(2) or "str"]
            converters[match.group(1)] = convert
            return f"(?P<{match.group(1)}>{expression})"

        compiled = re.compile("^" + _PARAMETER.sub(parameter, pattern) + "$")

        def register(handler: Handler) -> Handler:
            self._routes.append((compiled, converters, handler))
            return handler

        return register

    def dispatch(self, path: str, query: Mapping[str, str]) -> Response:
        for pattern, converters, handler in self._routes:
            match = pattern.match(path)
            if match:
                parameters = {name: converters[name](value) for name, value in match.groupdict().items()}
                return handler(Request(path, query, parameters))
        raise HttpError(404, f"nothing at {path}")
