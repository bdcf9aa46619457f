"""URL filters: ``urldecode`` (Jinja2 has ``urlencode``) and ``urlsplit``, as Ansible's."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus
from urllib.parse import urlsplit as split

from runner.templating.errors import TemplateError

_COMPONENTS = ("fragment", "hostname", "netloc", "password", "path", "port", "query", "scheme", "username")


def urldecode(value: Any) -> str:
    """``%xx`` escapes and ``+`` back to text (the inverse of ``urlencode``)."""
    return unquote_plus(str(value))


def urlsplit(value: Any, query: str = "") -> Any:
    """The parts of a URL as a dictionary, or the one part ``query`` names (``port`` is an integer)."""
    try:
        parts = split(str(value))
        components = {name: getattr(parts, name) for name in _COMPONENTS}
    except ValueError as exc:  # a port that is not a number, an invalid IPv6 host
        raise TemplateError(f"urlsplit: {exc}") from None
    if not query:
        return components
    if query not in components:
        raise TemplateError(f"urlsplit: unknown URL component: {query} (one of {', '.join(_COMPONENTS)})")
    return components[query]


FILTERS = {"urldecode": urldecode, "urlsplit": urlsplit}
