"""``meta``: a request to the controller about the play (end_host, end_play, clear_facts, flush_handlers ...)."""

from __future__ import annotations

from typing import Any

from runner.actions.context import ActionContext


async def run_meta(ctx: ActionContext) -> dict[str, Any]:
    ctx.state.request_meta(str(ctx.args.get("_raw_params") or ctx.args.get("free_form") or ""))
    return {"changed": False}
