"""``pause``: wait a number of seconds or minutes (no prompt: runs are not interactive)."""

from __future__ import annotations

from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext


async def run_pause(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    seconds = float(params.get("seconds") or 0) + 60 * float(params.get("minutes") or 0)
    if not ctx.check or seconds:
        import asyncio  # here, not with the module: the compiler loads every action and needs no asyncio

        await asyncio.sleep(seconds)
    return {"changed": False, "delta": seconds, "echo": True, "stdout": f"Paused for {seconds} seconds",
            "user_input": ""}
