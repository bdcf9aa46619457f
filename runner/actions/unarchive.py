"""``unarchive`` on the controller: send a controller-side archive to the host, then let the module unpack it.

The module first names a path in the agent's temp directory (or says that ``creates`` already exists, and
nothing is sent); the archive is streamed there over the host's connection, and a second call unpacks it and
removes it. With ``remote_src`` the archive is already on the host and the module does everything.
"""

from __future__ import annotations

from typing import Any

from modules.unarchive import UPLOAD, UPLOAD_PATH, UPLOADED
from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext
from runner.errors import UserError


async def send_and_unpack(ctx: ActionContext, requested: str) -> dict[str, Any]:
    try:
        local = ctx.find_file(requested)
    except UserError as exc:
        raise ActionFailed(exc.message) from None
    if not local.is_file():
        raise ActionFailed(f"Source '{local}' is not a file")
    first = await ctx.run_module(args={**ctx.args, UPLOAD: True})
    if first.get("failed") or UPLOAD_PATH not in first:
        return first  # a failure, or creates says there is nothing to do
    upload = first[UPLOAD_PATH]
    reply = await ctx.session.put(local, upload, become=ctx.become)
    if reply.get("failed"):
        raise ActionFailed(f"could not send {local} to the host: {reply.get('msg')}")
    result = await ctx.run_module(args={**ctx.args, "src": upload, UPLOADED: True})
    if "src" in result:
        result["src"] = str(local)
    return result


async def run_unarchive(ctx: ActionContext) -> dict[str, Any]:
    try:
        args = action_arguments(ctx)
        if args["remote_src"] or args["copy"] is False:
            return await ctx.run_module()
        return await send_and_unpack(ctx, args["src"])
    except ActionFailed as failure:
        return failure.result
