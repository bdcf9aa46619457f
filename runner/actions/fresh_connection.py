"""A new connection to the task's host beside its own, for actions that wait for a host to come back.

After a reboot (or while a host is being created) the task's session may hold a connection the host dropped;
each attempt of ``wait_for_connection`` and ``reboot`` opens one of these instead, allowing a single try of
``connect_timeout`` seconds, so that a host that is down costs one attempt, not the connection's own retries with
backoff.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from runner.actions.context import ActionContext

if TYPE_CHECKING:
    from runner.connection import HostSession


@asynccontextmanager
async def fresh_session(ctx: ActionContext, connect_timeout: float | None) -> AsyncIterator[HostSession]:
    """A new session to ``ctx``'s host (one connection try; ``connect_timeout`` seconds, or the host's own
    timeout when None), closed on leaving."""
    settings = ctx.session.settings
    settings = replace(settings, timeout=connect_timeout or settings.timeout, connect_retries=1)
    # The session (with the SSH transport) is imported here, not with the module: the compiler loads every
    # action, and a syntax check needs no connection code.
    from runner.connection import HostSession

    session = HostSession(settings, ctx.session.index)
    try:
        yield session
    finally:
        await session.close()
