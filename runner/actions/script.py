"""``script`` on the controller: find the local script, let the module decide whether it runs, send it, run it.

Three steps over the host's agent: the module's first call answers creates/removes and check mode (a skipped or
predicted result ends the task there, so nothing is sent), or names where the script goes; the script is
streamed there (mode 0700); the second call runs it and removes it.
"""

from __future__ import annotations

from typing import Any

from modules.script import ARGS, NAME, SCRIPT, UPLOAD, split_script
from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext
from runner.errors import UserError


def _local_script(ctx: ActionContext, raw: str | None) -> tuple[Any, str]:
    if not raw or not raw.strip():
        raise ActionFailed("one of the following is required: _raw_params, cmd", rc=256)  # Ansible's words
    try:
        name, arguments = split_script(raw)
        path = ctx.find_file(name)
    except ValueError as exc:
        raise ActionFailed(str(exc)) from None
    except UserError as exc:
        raise ActionFailed(exc.message) from None
    if not path.is_file():
        raise ActionFailed(f"script {path} is not a file")
    return path, arguments


async def run_script(ctx: ActionContext) -> dict[str, Any]:
    try:
        args = action_arguments(ctx)
        path, arguments = _local_script(ctx, args["_raw_params"])
        base = {**ctx.args, NAME: path.name, ARGS: arguments}
        first = await ctx.run_module(args=base)
        upload = first.pop(UPLOAD, None)
        if upload is None or first.get("failed"):
            return first
        sent = await ctx.session.put(path, upload, mode=0o700, become=ctx.become)
        if sent.get("failed"):
            raise ActionFailed(f"could not send {path} to the host: {sent.get('msg')}")
        return await ctx.run_module(args={**base, SCRIPT: upload})
    except ActionFailed as failure:
        return failure.result
