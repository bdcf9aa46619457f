"""``debug``: show a message or a variable's value, at or above a verbosity."""

from __future__ import annotations

from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.templating.errors import TemplateError


async def run_debug(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    if ctx.verbosity < int(params["verbosity"]):
        return {"changed": False, "skipped": True, "skipped_reason": "Verbosity threshold not met."}
    if params.get("var") is not None:
        name = str(params["var"])
        try:
            value = ctx.templar.template("{{ " + name + " }}")
        except TemplateError as error:
            if not error.undefined:  # a failing filter or lookup fails the task, as in Ansible
                raise
            value = "VARIABLE IS NOT DEFINED!"  # an undefined variable is shown as such
        return {"changed": False, name: value}
    return {"changed": False, "msg": params["msg"]}
