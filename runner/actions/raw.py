"""``raw``: a command on a plain exec channel, so it works on a host without Python (no agent involved)."""

from __future__ import annotations

from typing import Any

from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext

# ansible-core's raw action in check mode: a skip with nothing else, the host left alone.
CHECK_MODE_SKIPPED: dict[str, Any] = {"changed": False, "skipped": True}


def _empty_result(**extra: Any) -> dict[str, Any]:
    # The keys of a run's result, as ansible-core's raw returns them.
    return {"changed": False, "rc": 0, "stdout": "", "stdout_lines": [], "stderr": "", "stderr_lines": [], **extra}


async def run_raw(ctx: ActionContext) -> dict[str, Any]:
    try:
        args = action_arguments(ctx)
    except ActionFailed as failure:
        return failure.result
    if ctx.check:
        return dict(CHECK_MODE_SKIPPED)
    completed = await ctx.session.raw(args["_raw_params"], become=ctx.become, executable=args["executable"])
    stdout = completed.stdout.decode("utf-8", "replace")
    stderr = completed.stderr.decode("utf-8", "replace")
    result = _empty_result(changed=True, rc=completed.rc, stdout=stdout, stdout_lines=stdout.splitlines(),
                           stderr=stderr, stderr_lines=stderr.splitlines())
    if ctx.environment:
        result["warnings"] = ["raw module does not support the environment keyword"]
    if completed.rc != 0:
        result.update(failed=True, msg="non-zero return code")
    return result
