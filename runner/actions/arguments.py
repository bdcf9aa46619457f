"""The one error type of controller-side actions, and checking an action's arguments against its module's spec."""

from __future__ import annotations

from typing import Any

from modules._utils import ArgumentError, validate_arguments
from runner.actions.context import ActionContext

# Marks a result that reports a mistake (see ActionFailed); the executor names the task in its message and drops
# the mark, so that such a failure says where to look, unlike those an action reports as its outcome (fail, assert).
MISTAKE = "_provisioning_mistake"


class ActionFailed(Exception):
    """The task fails on this host with ``result`` (a user mistake such as a bad argument or a missing file)."""

    def __init__(self, msg: str, **result: Any):
        super().__init__(msg)
        self.result = {"failed": True, "changed": False, "msg": msg, **result, MISTAKE: True}


def action_arguments(ctx: ActionContext) -> dict[str, Any]:
    """The task's arguments resolved against the module's spec (aliases, types, defaults), or ``ActionFailed``."""
    try:
        return validate_arguments(ctx.module.argument_spec, ctx.args, ctx.module.spec_rules)
    except ArgumentError as exc:
        raise ActionFailed(str(exc)) from None
