"""``set_stats`` and ``validate_argument_spec``: actions on the run's own data, as Ansible's action plugins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modules._utils import ArgumentError, validate_arguments
from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.actions.set_fact import variable_name_problem
from runner.templating.filters.core import to_bool


async def run_set_stats(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    data = params["data"]
    if not isinstance(data, Mapping):
        return {"failed": True, "changed": False, "msg": "The 'data' option needs to be a dictionary/hash"}
    for name in data:
        problem = variable_name_problem(name)
        if problem is not None:
            return {"failed": True, "changed": False, "msg": problem}
    stats = {"data": dict(data), "per_host": bool(to_bool(params["per_host"])),
             "aggregate": bool(to_bool(params["aggregate"]))}
    return {"changed": False, "ansible_stats": stats}


async def run_validate_argument_spec(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    spec = params["argument_spec"]
    # The task's variables of the spec's names, then what the task gives explicitly (which wins).
    # (the variables rendered, as ansible-core renders them before checking)
    supplied = {**{name: ctx.templar.template(ctx.task_vars[name]) for name in spec if name in ctx.task_vars},
                **(params["provided_arguments"] or {})}
    result: dict[str, Any] = {"validate_args_context": params["validate_args_context"]}
    errors: list[str] = []
    try:
        validate_arguments(spec, supplied, errors=errors)
    except ArgumentError as exc:  # unknown or duplicate names, which stop the check
        errors.append(str(exc))
    if errors:
        text = "\n".join(errors)
        return {**result, "failed": True, "changed": False, "argument_spec_data": spec,
                "argument_errors": errors, "msg": f"Validation of arguments failed:\n{text}"}
    return {**result, "changed": False, "msg": "The arg spec validation passed"}
