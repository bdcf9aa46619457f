"""What a render in progress needs beyond its variables: search paths for lookups, and whether it read unsafe data.

Jinja2 calls filters, lookups and ``Environment.getattr`` without our objects, so the render in progress is held
in a context variable. Rendering is synchronous (an asyncio worker never awaits inside a render), so one state
per ``Templar`` call is exact.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


class Renderer(Protocol):
    """What the parts a render calls back into (filters, lookups, Jinja2's attribute access) use of the templar
    (``runner.templating.templar.Templar``), which is built on them and so is not imported here."""

    def resolve_variable(self, variables: Mapping[str, Any], name: str) -> Any: ...

    def resolve_variable_or_undefined(self, variables: Mapping[str, Any], name: str) -> Any: ...

    def template(self, value: Any, variables: Mapping[str, Any] | None = None, *,
                 search_paths: Sequence[str | Path] | None = None) -> Any: ...

    def template_keeping_undefined(self, value: Any, variables: Mapping[str, Any] | None = None, *,
                                   search_paths: Sequence[str | Path] | None = None) -> Any: ...

    def holds_template(self, value: Any) -> bool: ...

    def template_file(self, path: str | Path, variables: Mapping[str, Any] | None = None, *,
                      search_paths: Sequence[str | Path] | None = None, **jinja_options: Any) -> str: ...


class RenderedVariables(Protocol):
    """What a template reads (``runner.templating.templar.TemplateVariables``): each variable rendered on access,
    and ``raw``, the variables as given."""

    raw: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any: ...

    def __contains__(self, key: object) -> bool: ...


@dataclass
class RenderState:
    templar: Renderer
    variables: RenderedVariables  # what templates read: the raw variables, rendered on access
    search_paths: tuple[Path, ...]
    tainted: bool = False  # the current template read unsafe data, so its result is unsafe too
    # variables being rendered, and the items of their lists and mappings (by the container's id), to catch loops
    resolving: set[tuple[int, Any]] = field(default_factory=set)
    lazy_views: int = 0  # lazy views of variables made (lazy.py): only then are results searched for them
    depth: int = 0  # templates being rendered, one inside another: at 0 a result leaves the templates
    shallow: bool = False  # variables holding lists and mappings are read as written (template_container)
    undecryptable: bool = False  # a vault value read could not be decrypted: results are checked for its marker
    # undefined items are dropped from the lists and mappings rendered, not raised (template_omitting_undefined)
    omit_undefined: bool = False
    # undefined items of a native result are kept in it, not raised (template_keeping_undefined)
    keep_undefined: bool = False


_current: ContextVar[RenderState | None] = ContextVar("provisioning_render_state", default=None)


def current_state() -> RenderState | None:
    return _current.get()


@contextmanager
def active(state: RenderState) -> Iterator[RenderState]:
    token = _current.set(state)
    try:
        yield state
    finally:
        _current.reset(token)


def taint() -> None:
    """Record that the template being rendered read data from a host or a lookup."""
    state = _current.get()
    if state is not None:
        state.tainted = True
