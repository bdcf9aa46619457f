"""``ansible._protomatter.debug``: ansible-core 2.19's internal action that evaluates expressions as written and
shows each result, an undefined one replaced by a numbered placeholder with its error, which is also warned of."""

from __future__ import annotations

from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.actions.debug import undefined_text
from runner.templating.errors import TemplateError


async def run_protomatter_debug(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    results: list[Any] = []
    warnings: list[str] = []
    for expression in params["expression"]:
        try:
            results.append(ctx.templar.template("{{ " + str(expression) + " }}"))
        except TemplateError as error:
            if not error.undefined:
                raise
            # ansible-core's ReplacingMarkerBehavior: numbered through the task, one warning per expression
            number, message = len(warnings) + 1, undefined_text(error)
            results.append(f"<< error {number} - {message} >>")
            warnings.append(f"Encountered 1 template error.\nerror {number} - {message}")
    result: dict[str, Any] = {"changed": False, "expression_result": results, "_ansible_verbose_always": True}
    if warnings:
        result["warnings"] = warnings
    return result
