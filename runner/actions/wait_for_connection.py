"""``wait_for_connection``: retry a fresh connection and a ``ping`` through a fresh agent until the host answers.

Each attempt is a new session (``fresh_session``). Once the host answers, the task's own session is closed: its
connection may be one the host dropped (a reboot), and the next task opens a new one.
"""

from __future__ import annotations

import time
from typing import Any

from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext
from runner.actions.fresh_connection import fresh_session
from runner.connection.become import BecomeFailure
from runner.errors import ConnectionFailure


async def _attempt(ctx: ActionContext, connect_timeout: float, remaining: float) -> str | None:
    """One try: None when ping answered through a new connection and agent, else why it did not."""
    import asyncio  # see fresh_session

    try:
        async with fresh_session(ctx, connect_timeout) as probe:
            result = await asyncio.wait_for(probe.run_module("ping", {}, become=ctx.become),
                                            max(0.1, min(remaining, connect_timeout + 30)))
    except (ConnectionFailure, BecomeFailure, OSError) as exc:
        return str(exc) or type(exc).__name__
    except TimeoutError:
        return "timed out"
    if result.get("ping") != "pong":
        return result.get("msg") or "ping test failed"
    return None


async def run_wait_for_connection(ctx: ActionContext) -> dict[str, Any]:
    import asyncio  # see fresh_session

    try:
        args = action_arguments(ctx)
    except ActionFailed as failure:
        return failure.result
    if ctx.check:
        return {"changed": False, "skipped": True, "msg": "wait_for_connection is skipped in check mode"}
    started = time.monotonic()
    deadline = started + args["timeout"]
    if args["delay"]:
        await asyncio.sleep(args["delay"])
    while True:
        error = await _attempt(ctx, args["connect_timeout"], deadline - time.monotonic())
        if error is None:
            await ctx.session.close()
            return {"changed": False, "elapsed": int(time.monotonic() - started)}
        if time.monotonic() + args["sleep"] >= deadline:
            return {"failed": True, "changed": False, "elapsed": int(time.monotonic() - started),
                    "msg": f"timed out waiting for ping module test: {error}"}
        await asyncio.sleep(args["sleep"])
