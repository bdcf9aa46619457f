"""``assemble`` with ``remote_src: false``: join the fragments on the controller and send only the result.

The module on the host writes it as it writes fragments it joined itself (validate, backup, attributes, check
mode and diff are the module's). With ``remote_src`` (the default) the module does everything on the host.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from modules.assemble import ASSEMBLED, assemble_fragments
from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext
from runner.errors import UserError


def assemble_here(ctx: ActionContext, args: dict[str, Any]) -> tuple[str, bytes]:
    """The fragments' directory on the controller and the joined content."""
    try:
        src = ctx.find_file(args["src"])
    except UserError as exc:
        raise ActionFailed(exc.message) from None
    if not src.is_dir():
        raise ActionFailed(f"Source ({src}) is not a directory")
    try:
        return str(src), assemble_fragments(str(src), args["delimiter"], args["regexp"], args["ignore_hidden"])
    except re.error as exc:
        raise ActionFailed(f'Invalid Regexp ({exc}) in "{args["regexp"]}"') from None
    except OSError as exc:
        raise ActionFailed(f"Unable to read the fragments in {src}: {exc.strerror or exc}") from None


async def run_assemble(ctx: ActionContext) -> dict[str, Any]:
    try:
        args = action_arguments(ctx)
        if args["remote_src"]:
            return await ctx.run_module()
        src, data = assemble_here(ctx, args)
    except ActionFailed as failure:
        return failure.result
    result = await ctx.run_module(args={**ctx.args, ASSEMBLED: base64.b64encode(data).decode("ascii")})
    if "src" in result:
        result["src"] = src
    return result
