"""What a render in progress needs beyond its variables: search paths for lookups, and whether it read unsafe data.

Jinja2 calls filters, lookups and ``Environment.getattr`` without our objects, so the render in progress is held
in a context variable. Rendering is synchronous (an asyncio worker never awaits inside a render), so one state
per ``Templar`` call is exact.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from runner.templating.templar import Templar, TemplateVariables


@dataclass
class RenderState:
    templar: Templar
    variables: TemplateVariables  # what templates read: the raw variables, rendered on access
    search_paths: tuple[Path, ...]
    tainted: bool = False  # the current template read unsafe data, so its result is unsafe too
    resolving: set[tuple[int, str]] = field(default_factory=set)  # variables being rendered, to catch loops


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
