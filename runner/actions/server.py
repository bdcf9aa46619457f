"""``server``: create or delete a server through its provider (the work is ``runner.actions.server_provider``)."""

from __future__ import annotations

from typing import Any

from runner.actions.context import ActionContext


async def run_server(ctx: ActionContext) -> dict[str, Any]:
    # Providers (boto3, requests, the infra models) load only when a play creates or deletes a server.
    from runner.actions.server_provider import server

    return await server(ctx)
