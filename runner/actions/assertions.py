"""``assert`` and ``fail``: end the host's task in failure, on conditions or unconditionally."""

from __future__ import annotations

from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.templating import UNTRUSTED_TEMPLATES, TemplateError, is_whole_template

EMPTY_CONDITIONAL = "Empty conditional expressions are not allowed."


async def run_assert(ctx: ActionContext) -> dict[str, Any]:
    # ``that`` comes as written (Action.expressions): a whole template is rendered only to find a list of
    # conditions in it, as Ansible does; any other text is a condition, judged by where it came from.
    that = ctx.args.get("that")
    if "that" in ctx.args and (that is None or (isinstance(that, str) and not that.strip())) \
            and not UNTRUSTED_TEMPLATES.allow_broken_conditionals:
        # as ansible-core 2.19 (without ALLOW_BROKEN_CONDITIONALS): an empty condition is an error, not "true"
        return {"failed": True, "changed": False, "msg": EMPTY_CONDITIONAL}
    params = action_arguments(ctx)
    if isinstance(that, str) and is_whole_template(that):
        try:
            listed = ctx.templar.template_container(that)
        except TemplateError:
            listed = None  # the condition itself fails, with its own message
        that = listed if isinstance(listed, list) else that
    # One condition given as a string stays whole: the list type would split it at commas ("x in [1, 2]").
    conditions = [that] if isinstance(that, str) else that if isinstance(that, list) else params["that"]
    # Unless quiet, ansible-core shows the result at any verbosity (the message, and which assertion failed)
    shown: dict[str, Any] = {} if params["quiet"] else {"_ansible_verbose_always": True}
    for condition in conditions:
        if not ctx.templar.evaluate_conditional(condition):
            message = params.get("fail_msg") or params.get("msg") or "Assertion failed"
            return {"failed": True, "changed": False, "assertion": condition, "evaluated_to": False,
                    "msg": message, **shown}
    if params["quiet"]:
        return {"changed": False, "msg": "All assertions passed"}
    return {"changed": False, "msg": params.get("success_msg") or "All assertions passed", **shown}


async def run_fail(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    return {"failed": True, "changed": False, "msg": params["msg"]}
